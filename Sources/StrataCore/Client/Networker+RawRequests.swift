import Foundation
import HTTPTypes
import Logging

extension Networker {
    /// Sends `request` and `body` as they are through the client's middleware and
    /// transport, and returns the response head with its body unread, whatever the
    /// status: for a layer that builds its own requests and reads every response itself
    /// (a generated OpenAPI client, a proxy).
    ///
    /// Besides the request, it is a call of this client like any other: every step sees
    /// it, with `options` as its ``MiddlewareContext/options``; ``Configuration/timeout``
    /// bounds it, one timer covering the head and every read of the body (released when
    /// the body ends, fails or is dropped), or, with `idleTimeout`, the head only, each
    /// read of the body then having to deliver within `idleTimeout`;
    /// ``Configuration/attemptTimeout`` bounds each attempt; the call observers are told,
    /// and the work its steps leave for after it runs. Nothing is validated: a `404` is a
    /// response, and the body is the caller's to read (``Configuration/maxResponseBodySize``
    /// does not apply). Whether a step may send the body again (a retry, a redirect)
    /// depends on ``MessageBody/isReplayable``.
    ///
    /// - Parameters:
    ///   - request: an absolute request: method, scheme, authority, path and header fields.
    ///   - body: the request body, or `nil`.
    ///   - options: what the call asks of the client's features, under their keys
    ///     (``CallValueKey``), as ``Endpoint/options`` does for an endpoint.
    ///   - attributes: attributes the middleware can act on (``Endpoint/attributes``).
    ///   - logMetadata: metadata added to the call's ``MiddlewareContext/logger``, so that
    ///     every line its steps log carries it.
    ///   - idleTimeout: the longest wait for each read of the body, for a body with no end
    ///     in sight (an event stream); `nil` to read it within the call's deadline.
    ///   - transport: the transport the call ends in instead of the client's, after the
    ///     client's steps: for a feature whose last step is not an HTTP exchange (a
    ///     WebSocket's opening handshake); `nil` for the client's own.
    /// - Returns: the response head and its body (empty when the response has none).
    /// - Throws: ``StrataError`` naming the stage that failed: a transport failure, a
    ///   step's own error, a timeout, a cancellation.
    public func send(
        _ request: HTTPRequest,
        body: MessageBody?,
        options: CallValues = CallValues(),
        attributes: [String: String] = [:],
        logMetadata: Logger.Metadata = [:],
        idleTimeout: Duration? = nil,
        through transport: (any Transport)? = nil
    ) async throws(StrataError) -> (HTTPResponse, MessageBody) {
        var context = makeContext(
            deadline: configuration.timeout.map { .now + $0 }, attemptTimeout: configuration.attemptTimeout,
            attributes: attributes, options: options)
        if !logMetadata.isEmpty {
            var logger = context.logger
            for (key, value) in logMetadata { logger[metadataKey: key] = value }
            context.logger = logger
        }
        let response: (HTTPResponse, MessageBody)
        do {
            let chain = transport.map { Pipeline.chain(steps, transport: $0) } ?? self.chain
            response = try await context.call.streamed(
                request, body: body, context: context, chain: chain, idleTimeout: idleTimeout)
        } catch {
            throw end(context, failure: error)
        }
        try end(context)
        return response
    }
}
