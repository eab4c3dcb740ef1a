import Foundation
import HTTPTypes

/// Keeps a client under a rate per host — a token bucket — and slows down when a server
/// says so: an app that would hammer an API until it is banned sends at the pace it is
/// allowed instead.
///
/// ```swift
/// let networker = Networker(
///     transport: transport,
///     middleware: [RetryMiddleware(), RateLimitMiddleware(requestsPerSecond: 10, burst: 5)])
/// ```
///
/// - **The bucket**: each host (the request's authority, or the partition `partition`
///   chooses: an API key, a tenant) starts with `burst` tokens and earns `requestsPerSecond`
///   more a second, up to `burst`. A call takes a token before it goes on; one without a
///   token waits in a queue, in ``Endpoint/queuePriority`` order then arrival order, and a
///   call never takes a token while others of its host wait before it.
/// - **The server's word**: a `429` or `503` with `Retry-After` (seconds or a date) pauses
///   that host until then; the `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers,
///   `limit=5, remaining=0, reset=3` or `"default";r=0;t=3`) set the quota left until its
///   reset: none left pauses the host until the reset, some left lets at most that many
///   more go before it. A pause lasts at most ``maximumPause``. Other hosts keep going.
/// - **Bounded waits**: a queued call's wait counts against its deadline (it fails as the
///   call's timeout, `timedOut`, without reaching the transport); a cancelled one leaves the
///   queue at once; past `queueLimit` waiting calls, a call fails at once with
///   ``StrataError/Kind/middleware`` naming this type, with
///   ``RateLimitError/queueFull(limit:)`` as ``StrataError/underlying``.
///
/// Put it after a ``RetryMiddleware``: each retry then passes the limiter again, and a
/// retry after a `429` with `Retry-After` waits once — the retry's wait and the host's pause
/// end together — not twice. Copies of the step share their buckets; two steps made
/// separately limit separately.
public struct RateLimitMiddleware: Middleware {
    /// Calls that may wait for a token unless told otherwise: 1,000.
    public static var defaultQueueLimit: Int { 1_000 }
    /// The longest a server's word pauses a host unless told otherwise: 5 minutes.
    public static var defaultMaximumPause: Duration { .seconds(300) }

    let limiter: RateLimiter
    private let partition: @Sendable (HTTPRequest) -> String
    /// The longest a server's `Retry-After` or quota reset pauses a host.
    public let maximumPause: Duration

    /// Creates the step.
    /// - Parameters:
    ///   - requestsPerSecond: the tokens a host earns a second, from 0.001 (one every
    ///     1,000 s) to 10⁹.
    ///   - burst: the tokens a host holds at most, and starts with (at least 1).
    ///   - queueLimit: calls that may wait for a token at most; more fail at once.
    ///   - maximumPause: the longest a server's word pauses a host (a day at most).
    ///   - partition: the bucket a request draws from; by default its authority
    ///     (`api.example.com:8443`).
    public init(
        requestsPerSecond: Double,
        burst: Int,
        queueLimit: Int = defaultQueueLimit,
        maximumPause: Duration = defaultMaximumPause,
        partition: @escaping @Sendable (HTTPRequest) -> String = { $0.authority ?? "" }
    ) {
        limiter = RateLimiter(rate: requestsPerSecond, burst: burst, queueLimit: queueLimit)
        self.maximumPause = min(max(maximumPause, .zero), .seconds(86_400))
        self.partition = partition
    }

    /// The tokens a host earns a second.
    public var requestsPerSecond: Double { limiter.rate }
    /// The tokens a host holds at most.
    public var burst: Int { limiter.burst }
    /// Calls that may wait for a token at most.
    public var queueLimit: Int { limiter.queueLimit }

    /// Waits for a token, passes the request on, and learns from the response what the
    /// server said about the rate.
    public func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        let key = partition(request)
        try await limiter.acquire(key, priority: context.queuePriority, until: context.deadline)
        let (head, responseBody) = try await next(request, body, context)
        if var server = ServerRateLimit(head, now: Date()) {
            server.pause = server.pause.map { min($0, maximumPause) }
            server.reset = server.reset.map { min($0, maximumPause) }
            limiter.learn(server, for: key)
            context.logger.debug(
                "rate limit: the server's word",
                metadata: [
                    "strata.rate_limit.partition": "\(key)",
                    "strata.rate_limit.pause": "\(server.pause.map { "\($0)" } ?? "none")",
                    "strata.rate_limit.remaining": "\(server.remaining.map(String.init) ?? "unknown")",
                ])
        }
        return (head, responseBody)
    }

    /// `true`: it waits for a token under the deadline, and for nothing else but `next`.
    public var boundsItsWaits: Bool { true }
}

/// Why a ``RateLimitMiddleware`` refused a call.
public enum RateLimitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The queue already held `limit` calls waiting for a token.
    case queueFull(limit: Int)

    /// A one-line description for logs.
    public var description: String {
        switch self {
        case .queueFull(let limit): "the rate limit's queue is full (\(limit) calls waiting)"
        }
    }
}
