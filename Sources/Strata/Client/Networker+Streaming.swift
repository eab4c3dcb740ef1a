import Foundation
import HTTPTypes

extension Networker {
    /// Sends the endpoint's request and returns the response head with its body
    /// unread, for large or endless responses. The endpoint's parse function is not used.
    ///
    /// The status is validated before returning (content types are not, as that
    /// needs the body). The call's deadline still holds while a streamed body is read:
    /// one timer covers the head and every read, and a read past the deadline throws
    /// ``TransportError`` of kind ``TransportError/Kind/timedOut``. The timer is released
    /// when the body ends, fails, or is dropped. Whether the body really streams depends
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
    /// within `idleTimeout`, or it throws ``TransportError`` of kind
    /// ``TransportError/Kind/timedOut``. With `idleTimeout` `nil`, this is
    /// ``stream(_:)``: the deadline covers the body too.
    /// - Throws: ``StrataError`` naming the stage that failed.
    public func stream<Response>(_ endpoint: Endpoint<Response>, idleTimeout: Duration?) async throws(StrataError)
        -> (HTTPResponse, MessageBody)
    {
        let context = makeContext(for: endpoint, start: .now)
        do throws(StrataError) {
            let encoded = try encode(endpoint.request, jsonEncoder: endpoint.jsonEncoder, for: context)
            let request = encoded.head
            let (head, body) = try await context.call.streamed(
                request, body: encoded.body, context: context, chain: chain, idleTimeout: idleTimeout)
            var statusOnly = endpoint.validation ?? configuration.validation
            statusOnly.acceptableContentTypes = nil
            if let failure = statusOnly.failure(of: head, bodyIsEmpty: true, for: request) {
                let errorBody = await body.prefix(configuration.errorBodyLimit + 1)
                throw StrataError(
                    failure, request: request, response: head, body: errorBody,
                    bodyLimit: configuration.errorBodyLimit)
            }
            _ = end(context)
            return (head, body)
        } catch {
            throw end(context, failure: error)
        }
    }
}
