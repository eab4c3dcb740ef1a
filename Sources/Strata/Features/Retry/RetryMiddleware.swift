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
        budget?.deposit()
        var request = request
        if case .withIdempotencyKey = context.retry, request.headerFields[RetryPolicy.idempotencyKey] == nil {
            request.headerFields[RetryPolicy.idempotencyKey] = UUID().uuidString
        }
        let start = ContinuousClock.now
        var context = context
        while true {
            // Provisional until the loop ends: a cancelled call returns at once, before this
            // step has seen its cancellation, and reports what is recorded by then.
            context.record(RetrySummary(attempts: context.attempt, stopReason: .cancelled), for: RetrySummaryKey.self)
            let outcome: Result<(HTTPResponse, MessageBody?), any Error>
            do {
                outcome = .success(try await next(request, body, context))
            } catch {
                outcome = .failure(error)
            }
            let wait = self.wait(after: outcome, of: request, context: context, since: start)
            let stop: RetrySummary.StopReason? =
                if wait == nil {
                    Task.isCancelled || outcome.isCancellation ? .cancelled : .notRetryable
                } else if context.attempt >= policy.maxAttempts {
                    .attemptsExhausted
                } else if body?.isReplayable == false {
                    .bodyNotReplayable
                } else if let wait, let deadline = context.deadline, ContinuousClock.now + wait >= deadline {
                    .deadline
                } else if budget?.withdraw() == false { .budgetSpent } else { nil }
            guard let wait, stop == nil else {
                finish(context, stop ?? .notRetryable)
                return try outcome.get()
            }
            if case .success((_, let responseBody)) = outcome {
                await responseBody?.discard(until: context.deadline)
            }
            context.logger.debug(
                "retry",
                metadata: [
                    "strata.retry.attempt": "\(context.attempt + 1)", "strata.retry.wait": "\(wait)",
                    "strata.retry.after": "\(Self.describe(outcome))",
                ])
            do {
                try await sleep(wait)
            } catch {
                finish(context, .cancelled)
                throw error
            }
            context.attempt += 1
            context.retryWait = wait
        }
    }

    /// `true`: a retried response's body is discarded within the deadline, and no wait
    /// ends after it.
    public var boundsItsWaits: Bool { true }

    /// How long to wait before the next attempt, or `nil` when `outcome` is not retried.
    private func wait(
        after outcome: Result<(HTTPResponse, MessageBody?), any Error>,
        of request: HTTPRequest,
        context: MiddlewareContext,
        since start: ContinuousClock.Instant
    ) -> Duration? {
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
            return min(max(duration, .zero), policy.maxBackoff)
        case .retry:
            let asked = response.flatMap { RetryPolicy.retryAfter($0, now: now()) }
            return min(asked ?? policy.backoff(after: context.attempt), policy.maxBackoff)
        }
    }

    private func finish(_ context: MiddlewareContext, _ reason: RetrySummary.StopReason) {
        if reason != .notRetryable {
            context.logger.debug(
                "retry stopped",
                metadata: [
                    "strata.retry.attempts": "\(context.attempt)", "strata.retry.stop": "\(reason)",
                ])
        }
        context.record(RetrySummary(attempts: context.attempt, stopReason: reason), for: RetrySummaryKey.self)
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
        return error is CancellationError || (error as? StrataError)?.kind == .cancelled
    }
}
