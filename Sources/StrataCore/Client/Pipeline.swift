import Foundation
import HTTPTypes

/// How a ``Networker`` runs its middleware and transport, and how it turns what they
/// throw into a ``StrataError``: the rules of the pipeline contract, each written once.
enum Pipeline {
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
            if let step = step as? any EscapingMiddleware {
                return { request, body, context in
                    do {
                        return try await step.intercept(request, body: body, context: context, escapingNext: next)
                    } catch {
                        throw failure(error, request: request, middleware: name)
                    }
                }
            }
            return { request, body, context in
                do {
                    return try await step.intercept(request, body: body, context: context, next: next)
                } catch {
                    throw failure(error, request: request, middleware: name)
                }
            }
        }
    }

    /// What a step's error becomes: itself when it passes through steps, else
    /// ``StrataError/Kind/middleware`` naming the step.
    private static func failure(_ error: any Error, request: HTTPRequest, middleware name: String) -> any Error {
        StrataError.passesThroughSteps(error)
            ? error : StrataError(.middleware, underlying: error, request: request, middleware: name)
    }

    /// One pass through the transport, within the context's attempt timeout when it has
    /// one. The request goes as the context's steps adjusted it
    /// (``MiddlewareContext/adjustBeforeTransport(_:)``), and a status without a reason
    /// phrase gets the standard one, whatever the transport.
    static func send(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        through transport: any Transport
    ) async throws -> (HTTPResponse, MessageBody?) {
        let request = context.adjustedForTransport(request)
        let deadline = context.attemptDeadline
        let attemptTimer = context.attemptTimeout == nil ? nil : deadline.map { DeadlineTimer(deadline: $0) }
        defer { attemptTimer?.cancel() }
        var response: (HTTPResponse, MessageBody?)
        do {
            if let attemptTimer {
                let outcome = await attemptTimer.run {
                    try await transport.send(request, body: body, deadline: deadline)
                }
                if outcome.timedOut, let timeout = context.call.update({ $0.attemptDeadlinePassed() }) { throw timeout }
                response = try outcome.result.get()
            } else {
                response = try await transport.send(request, body: body, deadline: deadline)
            }
        } catch  where !StrataError.passesThroughSteps(error) {
            throw TransportError(.other, underlying: error)
        }
        response.0.fillInStandardReasonPhrase()
        return response
    }
}
