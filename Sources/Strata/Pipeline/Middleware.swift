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
