import HTTPTypes
import Logging

/// Stops sending requests to a host that keeps failing, under a ``CircuitBreakerPolicy``,
/// so that a struggling server gets time to recover and callers fail at once instead of
/// waiting for it.
///
/// Each host (scheme and `host:port`) has its own breaker; see ``CircuitBreakerPolicy``
/// for when it opens and closes. While a host's breaker is open, calls to it do not
/// reach the middleware after this one: they throw a ``StrataError`` of kind
/// ``StrataError/Kind/circuitOpen`` whose ``StrataError/underlying`` is a
/// ``CircuitOpenError`` saying when a probe will be let through.
///
/// Copies of one middleware share their breakers: give one value to every client that
/// talks to the same hosts, or one to each client to keep them apart. Place it inside a
/// ``RetryMiddleware`` (after it in the array) to count each attempt, and so that a retry
/// fails fast once the breaker opens.
///
/// State changes are logged on ``MiddlewareContext/logger`` — opening at warning level,
/// half-opening and closing at info level — with the metadata `strata.circuit.host`
/// (`host:port`) and `strata.circuit.state` (`open`, `half-open` or `closed`).
public struct CircuitBreakerMiddleware: Middleware {
    /// The rules it follows.
    public let policy: CircuitBreakerPolicy
    private let breakers: CircuitBreakers

    /// Creates the step, with every host's breaker closed.
    public init(policy: CircuitBreakerPolicy = CircuitBreakerPolicy()) {
        self.init(policy: policy, now: { ContinuousClock.now })
    }

    /// Creates the step with its own clock, for tests.
    init(policy: CircuitBreakerPolicy, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.policy = policy
        self.breakers = CircuitBreakers(policy: policy, now: now)
    }

    /// Sends `request` unless its host's breaker is open, and counts the outcome.
    /// - Throws: ``StrataError`` of kind ``StrataError/Kind/circuitOpen`` with a
    ///   ``CircuitOpenError`` when the breaker is open, and whatever `next` throws.
    public func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        let host = CircuitHost(request)
        let call: CircuitCall
        do {
            call = try breakers.admit(host, context: context)
        } catch {
            throw StrataError(.circuitOpen, underlying: error, request: request)
        }
        let response: (HTTPResponse, MessageBody?)
        do {
            response = try await next(request, body, context)
        } catch {
            breakers.finish(host, call, outcome(of: error, deadline: context.deadline), context: context)
            throw error
        }
        let failed = policy.failureStatuses.contains(response.0.status.code)
        breakers.finish(host, call, failed ? .failure : .success, context: context)
        return response
    }

    /// How many hosts the breakers track, for tests.
    var trackedHosts: Int { breakers.trackedHosts }

    /// What an error out of `next` says about the host.
    private func outcome(of error: any Error, deadline: ContinuousClock.Instant?) -> CircuitOutcome {
        let strataError = error as? StrataError
        if error is TransportError || strataError?.transportError != nil {
            return StrataError.isTimeout(error) || Deadline.hasPassed(deadline) || !Task.isCancelled
                ? .failure : .ignored
        }
        if let status = strataError?.status {
            return policy.failureStatuses.contains(status.code) ? .failure : .success
        }
        return StrataError.isCancellation(error) ? .cancellation(deadline: deadline) : .ignored
    }
}

extension CircuitBreakerMiddleware {
    /// `true`: it waits for nothing but `next`.
    public var boundsItsWaits: Bool { true }
}
