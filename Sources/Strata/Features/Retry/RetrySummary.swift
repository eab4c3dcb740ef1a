/// How many attempts a call made and why it made no more, on ``StrataError/retry`` and
/// ``EndpointResponse/retry`` when the client has a ``RetryMiddleware``.
public struct RetrySummary: Sendable, Hashable, CustomStringConvertible {
    /// Why a call stopped sending its request.
    ///
    /// A struct with static members rather than an enum, so that new reasons can be
    /// added without breaking callers.
    public struct StopReason: Hashable, Sendable, CustomStringConvertible {
        /// The reason's name, for example `budgetSpent`.
        public let description: String

        private init(_ description: String) {
            self.description = description
        }

        /// The last response or failure is not one the policy (or the endpoint's
        /// ``RetryRule``) retries — a success among them.
        public static let notRetryable = StopReason("notRetryable")
        /// The policy's ``RetryPolicy/maxAttempts`` were used up.
        public static let attemptsExhausted = StopReason("attemptsExhausted")
        /// The client's ``RetryBudget`` had no retry left.
        public static let budgetSpent = StopReason("budgetSpent")
        /// The wait before another attempt would have ended after the call's deadline.
        public static let deadline = StopReason("deadline")
        /// The request body cannot be sent a second time: a stream, or a streamed request
        /// that sent more messages than its replay buffer holds.
        public static let bodyNotReplayable = StopReason("bodyNotReplayable")
        /// The call was cancelled, during an attempt or a wait.
        public static let cancelled = StopReason("cancelled")
    }

    /// The attempts made, the first included.
    public var attempts: Int
    /// Why no further attempt was made.
    public var stopReason: StopReason

    /// Creates a summary.
    public init(attempts: Int, stopReason: StopReason) {
        self.attempts = attempts
        self.stopReason = stopReason
    }

    /// `3 attempts, stopped: attemptsExhausted`
    public var description: String {
        "\(attempts) attempt\(attempts == 1 ? "" : "s"), stopped: \(stopReason)"
    }
}

/// Where the retry step of a call leaves its ``RetrySummary``.
package enum RetrySummaryKey: CallValueKey {
    package typealias Value = RetrySummary

    /// The summary, when the call was retried or stopped for another reason than a
    /// response that is not retried.
    package static func describe(_ summary: RetrySummary) -> String? {
        summary.attempts > 1 || summary.stopReason != .notRetryable ? summary.description : nil
    }
}

/// How the endpoint asks the retry step to treat it.
enum RetryRuleKey: CallValueKey {
    typealias Value = RetryRule
}

extension Endpoint {
    /// How a client's ``RetryMiddleware`` treats this endpoint; `nil` follows its
    /// ``RetryPolicy``.
    public var retry: RetryRule? {
        get { options[RetryRuleKey.self] }
        set { options[RetryRuleKey.self] = newValue }
    }

    /// How a client's ``RetryMiddleware`` treats this call (``retry``).
    public func retry(_ rule: RetryRule) -> Endpoint {
        option(RetryRuleKey.self, rule)
    }
}

/// How long the retry step waited before the current attempt.
enum RetryWaitKey: CallValueKey {
    typealias Value = Duration
}

extension MiddlewareContext {
    /// How long ``RetryMiddleware`` waited before this attempt (`nil` on the first): for
    /// the steps after it that report on each attempt (a span's event, say).
    public internal(set) var retryWait: Duration? {
        get { options[RetryWaitKey.self] }
        set { options[RetryWaitKey.self] = newValue }
    }

    /// The endpoint's retry rule (see ``Endpoint/retry``), for ``RetryMiddleware``.
    public var retry: RetryRule? {
        get { options[RetryRuleKey.self] }
        set { options[RetryRuleKey.self] = newValue }
    }
}

extension EndpointResponse {
    /// How many attempts the call made and why it stopped, when the client has a
    /// ``RetryMiddleware``.
    public var retry: RetrySummary? { records[RetrySummaryKey.self] }
}

extension StrataError {
    /// How many attempts the call made and why it stopped, when the client has a
    /// ``RetryMiddleware``.
    public var retry: RetrySummary? { records[RetrySummaryKey.self] }
}

extension FinishedCall {
    /// How many attempts the call made and why it stopped, when the client has a
    /// ``RetryMiddleware``.
    public var retry: RetrySummary? { records[RetrySummaryKey.self] }
}
