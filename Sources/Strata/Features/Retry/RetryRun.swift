/// One call's retries under a ``RetryPolicy`` and a ``RetryBudget``: the decisions every
/// retry step of Strata's takes the same way, whatever the protocol — HTTP's
/// ``RetryMiddleware`` and the gRPC client's retry interceptor each say only whether an
/// attempt's outcome is retryable and how long it asks to wait.
///
/// A run deposits one call into the budget as it starts. After each attempt, ``decide(waiting:replayable:cancelled:)``
/// stops it — when the outcome is not retryable, the attempts are used up, the request
/// cannot be sent again, the wait would end after the deadline, or the budget has no retry
/// left, in that order — or returns the wait, and ``pause(for:after:)`` waits it and
/// moves on to the next attempt. The run records its ``RetrySummary`` on the call.
package struct RetryRun {
    /// The rules it follows.
    package let policy: RetryPolicy
    /// The client's budget, if any.
    package let budget: RetryBudget?
    /// The call's context, its ``MiddlewareContext/attempt`` counting the attempts.
    package private(set) var context: MiddlewareContext
    private let sleep: @Sendable (Duration) async throws -> Void

    /// Starts the retries of the call in `context`.
    package init(
        policy: RetryPolicy, budget: RetryBudget?, context: MiddlewareContext,
        sleep: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.policy = policy
        self.budget = budget
        self.context = context
        self.sleep = sleep
        budget?.deposit()
    }

    /// Marks an attempt as starting. Its summary is provisional until the run ends: a
    /// cancelled call returns at once, before the step has seen its cancellation, and
    /// reports what is recorded by then.
    package func attemptStarting() {
        context.record(RetrySummary(attempts: context.attempt, stopReason: .cancelled), for: RetrySummaryKey.self)
    }

    /// The wait before another attempt, or `nil` when the run stops (its summary recorded).
    /// - Parameters:
    ///   - wait: how long the outcome asks to wait before it is retried (its `Retry-After`
    ///     or the policy's backoff), at most ``RetryPolicy/maxBackoff``; `nil` when the
    ///     outcome is not retryable.
    ///   - replayable: whether the request can be sent again.
    ///   - cancelled: whether the attempt ended in a cancellation.
    package mutating func decide(waiting wait: Duration?, replayable: Bool, cancelled: Bool) -> Duration? {
        let stop: RetrySummary.StopReason? =
            if wait == nil {
                Task.isCancelled || cancelled ? .cancelled : .notRetryable
            } else if context.attempt >= policy.maxAttempts {
                .attemptsExhausted
            } else if !replayable {
                .bodyNotReplayable
            } else if let wait, let deadline = context.deadline, ContinuousClock.now + wait >= deadline {
                .deadline
            } else if budget?.withdraw() == false { .budgetSpent } else { nil }
        guard let wait, stop == nil else {
            finish(stop ?? .notRetryable)
            return nil
        }
        return wait
    }

    /// The wait before retrying after the current attempt: `asked` (a server's
    /// `Retry-After`), else the policy's backoff, at most ``RetryPolicy/maxBackoff``.
    package func wait(asked: Duration?) -> Duration {
        min(max(asked ?? policy.backoff(after: context.attempt), .zero), policy.maxBackoff)
    }

    /// Waits `wait` (logged with what the attempt ended in, `outcome`), then moves on to
    /// the next attempt.
    /// - Throws: `CancellationError` when the call is cancelled during the wait (the run's
    ///   summary then says so).
    package mutating func pause(for wait: Duration, after outcome: String) async throws {
        context.logger.debug(
            "retry",
            metadata: [
                "strata.retry.attempt": "\(context.attempt + 1)", "strata.retry.wait": "\(wait)",
                "strata.retry.after": "\(outcome)",
            ])
        do {
            try await sleep(wait)
        } catch {
            finish(.cancelled)
            throw error
        }
        context.attempt += 1
        context.retryWait = wait
    }

    private func finish(_ reason: RetrySummary.StopReason) {
        if reason != .notRetryable {
            context.logger.debug(
                "retry stopped",
                metadata: [
                    "strata.retry.attempts": "\(context.attempt)", "strata.retry.stop": "\(reason)",
                ])
        }
        context.record(RetrySummary(attempts: context.attempt, stopReason: reason), for: RetrySummaryKey.self)
    }
}
