import HTTPTypes

/// Bounds the calls in flight per host and in all, queueing the rest: a client that fans
/// out (a feed's images, a downstream call per request of a server's own) stays polite to
/// each server, as OkHttp's dispatcher does.
///
/// ```swift
/// let networker = Networker(
///     transport: transport,
///     middleware: [RetryMiddleware(), ConcurrencyLimitMiddleware(perHost: 4, total: 32)])
/// let avatar = try await networker.send(avatarEndpoint.queuePriority(1))
/// ```
///
/// - A host is the request's authority (`api.example.com:8443`): each has `perHost` slots,
///   and all hosts share `total`. A call takes a slot before it goes on and keeps it until
///   its response body has been read, has failed or was dropped, so a stream or a download
///   holds its slot until it ends (a body the transport already holds in memory frees it at
///   once).
/// - Waiting calls queue in ``Endpoint/queuePriority`` order (higher first), then in
///   arrival order; a freed slot goes to the first waiting call whose host has room, so a
///   busy host never holds up another.
/// - A queued call's wait counts against its deadline: one whose deadline passes in the
///   queue fails with ``TransportError/Kind/timedOut`` and never reaches the transport. A
///   cancelled call leaves the queue at once.
/// - The queue holds at most `queueLimit` calls; past that a call fails at once with
///   ``StrataError/Kind/middleware`` naming this type, with
///   ``ConcurrencyLimitError/queueFull(limit:)`` as ``StrataError/underlying``.
///
/// Put it after a ``RetryMiddleware`` in the client's list so that each retry waits its
/// turn again rather than keep a slot through its backoff. Copies of the step share its
/// slots; two steps made separately limit separately.
public struct ConcurrencyLimitMiddleware: Middleware {
    /// Slots per host unless told otherwise: 6, as browsers open over HTTP/1.1.
    public static var defaultPerHost: Int { 6 }
    /// Slots in all unless told otherwise: 64.
    public static var defaultTotal: Int { 64 }
    /// Calls that may wait unless told otherwise: 1,000.
    public static var defaultQueueLimit: Int { 1_000 }

    let limiter: ConcurrencyLimiter

    /// Creates the step.
    /// - Parameters:
    ///   - perHost: calls in flight to one host at most (at least 1).
    ///   - total: calls in flight to all hosts at most (at least 1).
    ///   - queueLimit: calls that may wait for a slot at most; more fail at once.
    public init(perHost: Int = defaultPerHost, total: Int = defaultTotal, queueLimit: Int = defaultQueueLimit) {
        limiter = ConcurrencyLimiter(perHost: perHost, total: total, queueLimit: queueLimit)
    }

    /// Calls in flight to one host at most.
    public var perHost: Int { limiter.perHost }
    /// Calls in flight to all hosts at most.
    public var total: Int { limiter.total }
    /// Calls that may wait for a slot at most.
    public var queueLimit: Int { limiter.queueLimit }

    /// Waits for a slot, passes the request on, and frees the slot when the response body ends.
    public func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        let host = request.authority ?? ""
        try await limiter.acquire(host: host, priority: context.queuePriority, until: context.deadline)
        let slot = Slot(limiter: limiter, host: host)
        do {
            let (head, responseBody) = try await next(request, body, context)
            // A body already in memory has nothing left to transfer: the slot goes now, and
            // the body keeps its fast paths.
            guard let responseBody, responseBody.bufferedData == nil else {
                slot.release()
                return (head, responseBody)
            }
            return (head, responseBody.watched { (chunk: { _ in }, end: { _ in slot.release() }) })
        } catch {
            slot.release()
            throw error
        }
    }
}

extension ConcurrencyLimitMiddleware {
    /// `true`: it waits for a slot under the deadline, and for nothing else but `next`.
    public var boundsItsWaits: Bool { true }
}

/// One call's slot, freed once: when its body ends, when the call fails, or when the body
/// is dropped unread (the slot goes with the last reference to it).
private final class Slot: Sendable {
    private let limiter: ConcurrencyLimiter
    private let host: String
    private let held = Locked(true)

    init(limiter: ConcurrencyLimiter, host: String) {
        self.limiter = limiter
        self.host = host
    }

    func release() {
        let wasHeld = held.withLock { held in
            defer { held = false }
            return held
        }
        if wasHeld { limiter.release(host: host) }
    }

    deinit { release() }
}

/// Why a ``ConcurrencyLimitMiddleware`` refused a call.
public enum ConcurrencyLimitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The queue already held `limit` calls waiting for a slot.
    case queueFull(limit: Int)

    /// A one-line description for logs.
    public var description: String {
        switch self {
        case .queueFull(let limit): "the concurrency limit's queue is full (\(limit) calls waiting)"
        }
    }
}
