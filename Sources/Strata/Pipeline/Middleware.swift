import HTTPTypes

/// The continuation a ``Middleware`` calls to pass the request on: the next
/// middleware, or the transport at the end of the chain.
public typealias MiddlewareNext = @Sendable (
    _ request: HTTPRequest,
    _ body: MessageBody?,
    _ context: MiddlewareContext
) async throws -> (HTTPResponse, MessageBody?)

/// A step around the transport: it sees every request on its way out and every
/// response on its way back, and may change, retry, short-circuit or log them.
///
/// Requests pass through a client's middleware in array order and responses in
/// reverse order, so the first middleware is the outermost.
///
/// Errors: throw whatever describes your step's failure; the ``Networker`` reports it
/// as ``StrataError/Kind/middleware`` with your type's name and your error as
/// ``StrataError/underlying``. Errors that come out of `next` (a ``StrataError``, a
/// ``TransportError``, a ``MessageBodyError`` or a cancellation) may be rethrown as they
/// are: they pass through every middleware untouched. Time: the context's
/// ``MiddlewareContext/deadline`` is enforced by the ``Networker``; a step that waits
/// (a backoff, a token refresh) should not outlast it.
///
/// ```swift
/// struct RequestID: Middleware {
///     func intercept(_ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext,
///                    next: MiddlewareNext) async throws -> (HTTPResponse, MessageBody?) {
///         var request = request
///         request.headerFields[HTTPField.Name("X-Request-ID")!] = UUID().uuidString
///         return try await next(request, body, context)
///     }
/// }
/// ```
public protocol Middleware: Sendable {
    /// Handles one request, calling `next` zero or more times.
    func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?)
}
