import Foundation
import HTTPTypes

/// Sends a request again after a retryable failure, under a ``RetryPolicy`` and a
/// client-wide ``RetryBudget``.
///
/// Each attempt passes through the middleware after this one with
/// ``MiddlewareContext/attempt`` counting up from 1, and is logged at debug level. Retrying
/// stops, and the last response is returned or the last error thrown, when:
/// - the response or failure is not retryable (by the policy or the endpoint's
///   ``RetryRule``), or the attempts are used up;
/// - the request body cannot be read again (``MessageBody/isReplayable``);
/// - the wait would end after the call's ``MiddlewareContext/deadline``;
/// - the budget has no retry left;
/// - the call is cancelled, also during a wait (which then ends at once).
///
/// The ``Networker`` puts the number of attempts and the reason they stopped on the
/// call's error or response as a ``RetrySummary``.
public struct RetryMiddleware: Middleware {
    /// The rules it follows.
    public let policy: RetryPolicy
    /// The retries its client may make; `nil` for no limit besides the policy's.
    public let budget: RetryBudget?
    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Date

    /// Creates the step.
    /// - Parameters:
    ///   - policy: when and how to retry.
    ///   - budget: the retries the client may make, shared by all its calls; by default
    ///     a ``RetryBudget`` of its own (20% of calls plus 10 a second).
    public init(policy: RetryPolicy = RetryPolicy(), budget: RetryBudget? = RetryBudget()) {
        self.init(policy: policy, budget: budget, sleep: { try await Deadline.sleep(for: $0) }, now: { Date() })
    }

    /// Creates the step with its own clock, for tests: `sleep` waits between attempts
    /// (throwing when cancelled), `now` dates `Retry-After`.
    init(
        policy: RetryPolicy,
        budget: RetryBudget? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        now: @escaping @Sendable () -> Date
    ) {
        self.policy = policy
        self.budget = budget
        self.sleep = sleep
        self.now = now
    }

    /// Sends `request`, again after each retryable failure; see the type's documentation.
    public func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        var request = request
        if case .withIdempotencyKey = context.retry, request.headerFields[RetryPolicy.idempotencyKey] == nil {
            request.headerFields[RetryPolicy.idempotencyKey] = UUID().uuidString
        }
        let start = ContinuousClock.now
        var run = RetryRun(policy: policy, budget: budget, context: context, sleep: sleep)
        while true {
            run.attemptStarting()
            let outcome: Result<(HTTPResponse, MessageBody?), any Error>
            do {
                outcome = .success(try await next(request, body, run.context))
            } catch {
                outcome = .failure(error)
            }
            let asked = self.wait(after: outcome, of: request, run: run, since: start)
            guard
                let wait = run.decide(
                    waiting: asked, replayable: body?.isReplayable != false, cancelled: outcome.isCancellation)
            else { return try outcome.get() }
            if case .success((_, let responseBody)) = outcome {
                await responseBody?.discard(until: run.context.deadline)
            }
            try await run.pause(for: wait, after: Self.describe(outcome))
        }
    }

    /// `true`: a retried response's body is discarded within the deadline, and no wait
    /// ends after it.
    public var boundsItsWaits: Bool { true }

    /// How long to wait before the next attempt, or `nil` when `outcome` is not retried.
    private func wait(
        after outcome: Result<(HTTPResponse, MessageBody?), any Error>,
        of request: HTTPRequest,
        run: RetryRun,
        since start: ContinuousClock.Instant
    ) -> Duration? {
        let context = run.context
        let response = try? outcome.get().0
        var decision = RetryDecision.useDefaultRule
        switch context.retry {
        case .never:
            return nil
        case .custom(let decide):
            let error: (any Error)? = if case .failure(let failure) = outcome { failure } else { nil }
            decision = decide(
                RetryAttempt(
                    number: context.attempt, request: request, response: response,
                    error: error, elapsed: start.duration(to: .now)))
        case .withIdempotencyKey, nil:
            break
        }
        if decision == .useDefaultRule {
            decision = policy.retries(request, outcome: outcome) ? .retry : .stop
        }
        switch decision {
        case .stop, .useDefaultRule:
            return nil
        case .retryAfter(let duration):
            return run.wait(asked: duration)
        case .retry:
            return run.wait(asked: response.flatMap { RetryPolicy.retryAfter($0, now: now()) })
        }
    }

    private static func describe(_ outcome: Result<(HTTPResponse, MessageBody?), any Error>) -> String {
        switch outcome {
        case .success((let response, _)): "\(response.status.code)"
        case .failure(let error): "\(error)"
        }
    }
}

extension Result where Failure == any Error {
    /// Whether this is a cancellation, as thrown or as Strata reports it.
    fileprivate var isCancellation: Bool {
        guard case .failure(let error) = self else { return false }
        return StrataError.isCancellation(error)
    }
}
