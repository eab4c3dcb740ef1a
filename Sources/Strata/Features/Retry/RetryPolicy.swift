import Foundation
import HTTPTypes

/// When and how ``RetryMiddleware`` sends a request again.
///
/// The defaults retry idempotent methods (`GET`, `HEAD`, `OPTIONS`, `PUT`, `DELETE`,
/// `TRACE`) up to 3 attempts in all, on `408`, `429`, `500`, `502`, `503` and `504` and on
/// failures where the request cannot have been processed or timed out on its attempt
/// (``TransportError/Kind/connectionRefused``, ``TransportError/Kind/connectionLost`` and
/// ``TransportError/Kind/timedOut`` before a response head). Between attempts it waits
/// with exponential backoff and full jitter — a random time between zero and
/// `initialBackoff × 2^(attempt − 1)`, at most `maxBackoff` — or as long as the
/// response's `Retry-After` says (seconds or an HTTP date), also at most `maxBackoff`.
///
/// An endpoint changes the decision with its ``Endpoint/retry`` rule (``RetryRule``):
/// never retry, retry any method with an `Idempotency-Key`, or decide with a closure.
/// A request that already carries an `Idempotency-Key` is retryable whatever its method.
public struct RetryPolicy: Sendable, Hashable {
    /// The `Idempotency-Key` header field.
    public static let idempotencyKey = HTTPField.Name("Idempotency-Key")!

    /// The most attempts one call makes, the first included; 3 by default.
    public var maxAttempts: Int
    /// The backoff ceiling before the second attempt; it doubles with each attempt.
    public var initialBackoff: Duration
    /// The longest wait between attempts, `Retry-After` included.
    public var maxBackoff: Duration
    /// The methods retried without an `Idempotency-Key`.
    public var methods: Set<HTTPRequest.Method>
    /// The statuses that are retried.
    public var statuses: Set<Int>
    /// The transport failures that are retried (only before a response head arrived).
    public var failures: Set<TransportError.Kind>

    /// Creates a policy; see the type's documentation for the defaults.
    public init(
        maxAttempts: Int = 3,
        initialBackoff: Duration = .milliseconds(100),
        maxBackoff: Duration = .seconds(10),
        methods: Set<HTTPRequest.Method> = HTTPRequest.Method.idempotent,
        statuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        failures: Set<TransportError.Kind> = [.connectionRefused, .connectionLost, .timedOut]
    ) {
        self.maxAttempts = maxAttempts
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.methods = methods
        self.statuses = statuses
        self.failures = failures
    }

    /// Whether the default rule retries `request` after `outcome`: an idempotent method
    /// (or an `Idempotency-Key`), and a status in ``statuses`` or a failure in ``failures``.
    func retries(_ request: HTTPRequest, outcome: Result<(HTTPResponse, MessageBody?), any Error>) -> Bool {
        guard methods.contains(request.method) || request.headerFields[Self.idempotencyKey] != nil else { return false }
        switch outcome {
        case .success((let response, _)): return statuses.contains(response.status.code)
        case .failure(let error): return (error as? TransportError).map { failures.contains($0.kind) } ?? false
        }
    }

    /// The wait after failed attempt number `attempt` (1 for the first): a random
    /// duration in `0 ... min(maxBackoff, initialBackoff × 2^(attempt − 1))`.
    public func backoff(after attempt: Int) -> Duration {
        .nanoseconds(Int64.random(in: 0...backoffCeiling(after: attempt)))
    }

    /// ``backoff(after:)`` drawn from `generator`, for reproducible waits.
    public func backoff(after attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        .nanoseconds(Int64.random(in: 0...backoffCeiling(after: attempt), using: &generator))
    }

    /// The longest backoff after attempt number `attempt`, in nanoseconds.
    private func backoffCeiling(after attempt: Int) -> Int64 {
        let ceiling = min(maxBackoff, initialBackoff * (1 << min(max(attempt - 1, 0), 30)))
        return max(Int64(ceiling / .nanoseconds(1)), 0)
    }

    /// How long `response` asks to wait, from its `Retry-After` field: a number of
    /// seconds or an HTTP date (compared with `now`); `nil` without a usable value. A
    /// date in the past is no wait.
    public static func retryAfter(_ response: HTTPResponse, now: Date) -> Duration? {
        guard let value = response.headerFields[.retryAfter]?.trimmingCharacters(in: .whitespaces), !value.isEmpty
        else { return nil }
        if value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return .seconds(Int64(value) ?? .max)  // too many digits: longer than any cap
        }
        guard let date = HTTPDate.parse(value) else { return nil }
        return .milliseconds(max(Int64(date.timeIntervalSince(now) * 1000), 0))
    }

}
