import Foundation
import HTTPTypes

/// How an ``Outbox`` delivers: how long it waits after a failed attempt, when it gives up,
/// what a dead letter does to its group, and how it learns that the network is back.
public struct OutboxPolicy: Sendable {
    /// What the rest of a group does when one of its items becomes a ``DeadLetter``.
    public enum DeadLetterAction: Sendable, Hashable {
        /// The group's next items go on (the default).
        case continueGroup
        /// The group waits until the app retries or discards the dead letter: for items
        /// that depend on the one before (an edit of a note the server refused to create).
        case stopGroup
    }

    /// The longest wait before the second attempt; it doubles with each failed attempt
    /// (full jitter, as ``RetryPolicy`` waits); 1 second by default.
    public var initialBackoff: Duration
    /// The longest wait between attempts that the outbox chooses; 5 minutes by default.
    public var maxBackoff: Duration
    /// The longest wait a server's `Retry-After` gets (on any status the outbox retries):
    /// 1 hour by default. A server that asks for more is asked again after this.
    public var maxRetryAfter: Duration
    /// After this many failed attempts the item becomes a dead letter; `nil` (the
    /// default) to keep trying.
    public var maxFailedAttempts: Int?
    /// What a dead letter does to its group.
    public var deadLetterAction: DeadLetterAction
    /// Asked after a wait that followed a failed attempt, before the next: `false` waits
    /// once more without sending. For a reachability check the app has (a probe request,
    /// the system's network path); `nil` (the default) sends after the wait alone.
    public var isReachable: (@Sendable () async -> Bool)?

    /// Creates a policy; see the properties for the defaults.
    public init(
        initialBackoff: Duration = .seconds(1),
        maxBackoff: Duration = .seconds(300),
        maxRetryAfter: Duration = .seconds(3600),
        maxFailedAttempts: Int? = nil,
        deadLetterAction: DeadLetterAction = .continueGroup,
        isReachable: (@Sendable () async -> Bool)? = nil
    ) {
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.maxRetryAfter = maxRetryAfter
        self.maxFailedAttempts = maxFailedAttempts
        self.deadLetterAction = deadLetterAction
        self.isReachable = isReachable
    }

    /// What `response` asks with `Retry-After` (at most ``maxRetryAfter``), or else the
    /// backoff after failed attempt number `attempt`.
    func wait(after attempt: Int, response: HTTPResponse?) -> Duration {
        if let response, let asked = RetryPolicy.retryAfter(response, now: Date()) { return min(asked, maxRetryAfter) }
        return RetryPolicy(initialBackoff: initialBackoff, maxBackoff: maxBackoff).backoff(after: attempt)
    }
}

/// What the server's answer, or the failure, means for an item.
enum OutboxVerdict {
    /// A final answer: the item is done.
    case delivered
    /// Worth another attempt: the connection, a timeout, `408`, `425`, `429`, a `5xx`.
    case retry
    /// Refused for good: a `4xx` other than those, or a request that cannot be sent.
    case refused(reason: String)
    /// The delivery was cancelled (the outbox closed); the item stays as it is.
    case stopped

    /// The verdict on a response with `status`.
    init(status: Int) {
        switch status {
        case 408, 425, 429, 500...: self = .retry
        case 400..<500: self = .refused(reason: "the server refused the item with status \(status)")
        default: self = .delivered
        }
    }

    /// The verdict on a call that failed with `error` before a response.
    init(error: StrataError) {
        switch error.kind {
        case .cancelled: self = .stopped
        case .invalidURL, .encoding: self = .refused(reason: error.description)
        default: self = .retry
        }
    }
}
