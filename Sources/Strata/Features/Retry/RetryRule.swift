import HTTPTypes

/// How one endpoint overrides the client's ``RetryPolicy``; set it as ``Endpoint/retry``.
///
/// ```swift
/// var charge = Endpoint<Receipt>(chargeRequest, decoding: Receipt.self)
/// charge.retry = .withIdempotencyKey     // a POST the server deduplicates by key
/// var poll = Endpoint<Job>(jobRequest, decoding: Job.self)
/// poll.retry = .custom { attempt in      // also retry while the job is not ready
///     attempt.response?.status.code == 425 ? .retry : .useDefaultRule
/// }
/// ```
///
/// Whatever the rule, the policy's attempt limit, the client's ``RetryBudget``, the
/// call's deadline and the rule that a body which cannot be read again is sent once
/// still hold.
public enum RetryRule: Sendable {
    /// Never send this endpoint's request twice.
    case never
    /// Send an `Idempotency-Key` field, generated once per call and the same on every
    /// attempt, and retry whatever the method (the policy's statuses and failures still
    /// decide when).
    case withIdempotencyKey
    /// Ask `decide` after each attempt; it sees the attempt number, the response head or
    /// the error, and the time since the call started.
    case custom(@Sendable (RetryAttempt) -> RetryDecision)
}

/// What a ``RetryRule/custom(_:)`` decision sees about the attempt that just ended.
public struct RetryAttempt: Sendable {
    /// The attempt's number, from 1.
    public let number: Int
    /// The request as this attempt sent it.
    public let request: HTTPRequest
    /// The response head, when one arrived.
    public let response: HTTPResponse?
    /// The failure, when no response arrived.
    public let error: (any Error)?
    /// The time since the first attempt started.
    public let elapsed: Duration

    /// Creates the attempt's description, for a retry step of another protocol (gRPC's).
    package init(
        number: Int, request: HTTPRequest, response: HTTPResponse?, error: (any Error)?, elapsed: Duration
    ) {
        self.number = number
        self.request = request
        self.response = response
        self.error = error
        self.elapsed = elapsed
    }
}

/// The answer of a ``RetryRule/custom(_:)`` decision.
public enum RetryDecision: Sendable, Equatable {
    /// Do not send the request again.
    case stop
    /// Send it again after the policy's backoff (or the response's `Retry-After`).
    case retry
    /// Send it again after this wait (at most the policy's ``RetryPolicy/maxBackoff``).
    case retryAfter(Duration)
    /// Decide as the client's ``RetryPolicy`` would.
    case useDefaultRule
}
