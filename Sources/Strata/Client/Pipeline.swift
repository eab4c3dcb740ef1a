import Foundation
import HTTPTypes

/// How a ``Networker`` runs its middleware and transport, and how it turns what they
/// throw into a ``StrataError``: the rules of the pipeline contract, each written once.
enum Pipeline {
    /// How far an exchange got: shared (copies share it) between the task running it
    /// and the caller, which may have to report a timeout while that task still runs.
    struct Progress: Sendable {
        private let head = Locked<HTTPResponse?>(nil)

        /// Nothing arrived yet; copies share what arrives.
        init() {}

        /// Records that the response head arrived; the body is read next.
        func headArrived(_ response: HTTPResponse) {
            head.withLock { $0 = response }
        }

        /// The response head, once it arrived.
        var response: HTTPResponse? { head.withLock { $0 } }
    }

    /// The chain of `middleware` around `transport`, outermost first.
    ///
    /// Each middleware step's own errors become ``StrataError/Kind/middleware`` naming
    /// its type; the transport step turns unknown errors into ``TransportError`` and
    /// enforces the context's attempt timeout.
    static func chain(_ middleware: [any Middleware], transport: any Transport) -> MiddlewareNext {
        let send: MiddlewareNext = { request, body, context in
            try await Self.send(request, body: body, context: context, through: transport)
        }
        return middleware.reversed().reduce(send) { next, step in
            let name = String(describing: type(of: step))
            return { request, body, context in
                do {
                    return try await step.intercept(request, body: body, context: context, next: next)
                } catch where !passesThrough(error) {
                    throw StrataError(.middleware, underlying: error, request: request, middleware: name)
                }
            }
        }
    }

    /// Whether `error` comes from further down the pipeline (or is a cancellation) and
    /// goes up through middleware untouched.
    static func passesThrough(_ error: any Error) -> Bool {
        error is StrataError || error is TransportError || error is CancellationError || error is MessageBodyError
    }

    /// One pass through the transport, within the context's attempt timeout when it has
    /// one. Credentials are withheld from a redirect that left its origin
    /// (``RedirectHop/withholdsCredentials``), and a status without a reason phrase gets
    /// the standard one, whatever the transport.
    static func send(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        through transport: any Transport
    ) async throws -> (HTTPResponse, MessageBody?) {
        var outgoing = request
        if context.redirect?.withholdsCredentials == true {
            outgoing.headerFields = outgoing.headerFields.removingCredentials()
        }
        let request = outgoing
        let deadline = context.attemptDeadline
        let attemptTimer = context.attemptTimeout == nil ? nil : deadline.map(ExchangeTimer.init)
        defer { attemptTimer?.cancel() }
        let outcome = await Deadline.run(under: attemptTimer) {
            try await transport.send(request, body: body, deadline: deadline)
        }
        if outcome.timedOut { throw TransportError(.timedOut) }
        switch outcome.result {
        case .success(var response):
            response.0.status = response.0.status.withStandardReasonPhrase
            return response
        case .failure(let error) where passesThrough(error): throw error
        case .failure(let error): throw TransportError(.other, underlying: error)
        }
    }

    /// The ``StrataError`` for whatever the exchange threw; `timedOut` says the call's
    /// deadline passed while it ran, which makes any failure a timeout.
    static func classify(_ cause: any Error, request: HTTPRequest, progress: Progress, timedOut: Bool) -> StrataError {
        let response = progress.response
        let phase: StrataError.Phase = response == nil ? .awaitingHead : .readingBody
        func transport(_ error: TransportError) -> StrataError {
            StrataError(.transport, underlying: error, request: request, response: response, phase: phase)
        }
        if timedOut { return transport(TransportError(.timedOut)) }
        switch cause {
        case let error as StrataError:
            return error
        case is CancellationError:
            return StrataError(.cancelled, request: request, response: response)
        case MessageBodyError.tooLarge:
            return StrataError(.bodyTooLarge, underlying: cause, request: request, response: response)
        case let error as TransportError where error.kind == .bodyTooLarge:
            return StrataError(.bodyTooLarge, underlying: cause, request: request, response: response)
        case let error as TransportError where error.kind == .timedOut || !Task.isCancelled:
            return transport(error)
        default:
            if Task.isCancelled { return StrataError(.cancelled, request: request, response: response) }
            return transport(TransportError(.other, underlying: cause))
        }
    }

    private static let requestCounter = Locked<UInt64>(0)

    /// A number unique within the process, for the `strata.request` logger metadata.
    static func nextRequestID() -> UInt64 {
        requestCounter.withLock { counter in
            counter &+= 1
            return counter
        }
    }
}
