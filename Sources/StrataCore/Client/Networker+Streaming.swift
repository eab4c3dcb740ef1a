import Foundation
import HTTPTypes

extension Networker {
    /// Sends the endpoint's request and returns the response head with its body
    /// unread, for large or endless responses. The endpoint's parse function is not used.
    ///
    /// The status is validated before returning (content types are not, as that
    /// needs the body). The call's deadline still holds while a streamed body is read:
    /// one timer covers the head and every read. A read that fails throws the
    /// ``StrataError`` the call ends with, with the request, the response head and the
    /// phase "reading the body": past the deadline a ``StrataError/Kind/transport``
    /// failure whose ``TransportError`` is ``TransportError/Kind/timedOut``, a cancelled
    /// reading task ``StrataError/Kind/cancelled``, the connection lost the transport's
    /// failure. The timer is released when the body ends, fails, or is dropped. Whether the body really streams depends
    /// on the transport: AsyncHTTPClient streams, and so does URLSession on a session the
    /// transport created (on a borrowed session it delivers the body whole).
    /// - Throws: ``StrataError`` naming the stage that failed.
    public func stream<Response>(_ endpoint: Endpoint<Response>) async throws(StrataError) -> (
        HTTPResponse, MessageBody
    ) {
        try await stream(endpoint, idleTimeout: nil)
    }

    /// Sends the endpoint's request and returns the response head with its body unread,
    /// for a body with no end in sight (an event stream, a feed): the call's deadline
    /// covers only the wait for the head, and each read of the body must deliver bytes
    /// within `idleTimeout`, or it throws a ``StrataError/Kind/transport`` failure whose
    /// ``TransportError`` is ``TransportError/Kind/timedOut`` (phase "reading the body"),
    /// as ``stream(_:)``'s reads fail. With `idleTimeout` `nil`, this is ``stream(_:)``:
    /// the deadline covers the body too.
    /// - Throws: ``StrataError`` naming the stage that failed.
    public func stream<Response>(_ endpoint: Endpoint<Response>, idleTimeout: Duration?) async throws(StrataError)
        -> (HTTPResponse, MessageBody)
    {
        let context = makeContext(for: endpoint, start: .now)
        let (head, body): (HTTPResponse, MessageBody)
        do throws(StrataError) {
            let encoded = try encode(endpoint.request, jsonEncoder: endpoint.jsonEncoder, for: context)
            let request = encoded.head
            (head, body) = try await context.call.streamed(
                request, body: encoded.body, context: context, chain: chain, idleTimeout: idleTimeout)
            var statusOnly = endpoint.validation ?? configuration.validation
            statusOnly.acceptableContentTypes = nil
            if let failure = statusOnly.failure(of: head, bodyIsEmpty: true, for: request) {
                let errorBody = await body.prefix(configuration.errorBodyLimit + 1)
                throw StrataError(
                    failure, request: request, response: head, body: errorBody,
                    bodyLimit: configuration.errorBodyLimit)
            }
        } catch {
            throw end(context, failure: error)
        }
        try end(context)
        return (head, body)
    }
}
