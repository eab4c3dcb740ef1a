import HTTPTypes

/// The continuation a ``Middleware`` calls to pass the request on: the next
/// middleware, or the transport at the end of the chain.
public typealias MiddlewareNext =
    @Sendable (
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
/// When the deadline passes, the ``Networker`` gives the caller its timeout at once and
/// abandons the work still running: that task is cancelled, so `next` throws (a
/// cancellation, or a ``TransportError`` of kind ``TransportError/Kind/timedOut``), but
/// possibly after the caller has its error and has made further calls. A step that keeps
/// state across calls must not count on seeing an abandoned call's outcome before the
/// next call starts (the circuit breaker counts a call it let through whose deadline has
/// passed as a failure when it admits the next one, whether or not the abandoned call
/// has ended yet).
///
/// Per-call values: a feature keeps what an endpoint asks of it, what it passes along,
/// and what it reports back under keys of its own (``CallValueKey``), in
/// ``Endpoint/options``, ``MiddlewareContext/options`` and
/// ``MiddlewareContext/record(_:for:)``; Strata's own steps do the same.
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

    /// Whether this step bounds its own waits by the context's
    /// ``MiddlewareContext/deadline``: it reads response bodies only within it, and waits
    /// for nothing but `next` and waits that end by the deadline. `false` by default.
    ///
    /// A ``Networker`` whose steps all say `true`, over a transport that
    /// ``Transport/enforcesDeadline``, runs a call up to the response head in the caller's
    /// task, with no task of its own; otherwise it runs the call in a task it abandons at
    /// the deadline, so that a step that waits too long cannot hold the caller. Say `true`
    /// only when it holds for every path of ``intercept(_:body:context:next:)``: read or
    /// drop a body with ``MessageBody/read(until:_:)`` or ``MessageBody/discard(until:)``
    /// at the context's deadline.
    var boundsItsWaits: Bool { get }
}

extension Middleware {
    /// `false`: the ``Networker`` keeps its own task around the call.
    public var boundsItsWaits: Bool { false }
}

/// A ``Middleware`` that may hand the rest of the chain to work outliving its own call:
/// one request run in a task of its own and shared by several callers, which goes on when
/// the caller that started it gives up.
///
/// A client's chain calls ``intercept(_:body:context:escapingNext:)``, whose `next` may
/// be kept and called after the step returns (within the client's life). Called as a
/// plain ``Middleware`` — directly, in a test, or by a layer that runs Strata steps around
/// a transport of its own — the step gets a `next` it must not keep, and should pass the
/// request on as it is.
public protocol EscapingMiddleware: Middleware {
    /// Handles one request, calling `next` zero or more times, possibly after returning.
    func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        escapingNext next: @escaping MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?)
}
