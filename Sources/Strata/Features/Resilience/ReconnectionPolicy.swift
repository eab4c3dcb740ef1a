/// How a long-lived connection reconnects when it drops: an event stream
/// (`Networker.events(_:)`, also when its body ends) or a WebSocket
/// (``WebSocketReconnection``).
///
/// The wait before a reconnection is the reconnection time (an event stream's last `retry`
/// field, else ``reconnectionTime``), doubled for each connection in a row that failed
/// before it delivered an event or a message, at most ``maximumDelay``, with full jitter (a random
/// wait between zero and that) unless ``jitter`` is off. Every reconnection takes a
/// token from ``budget``, which is by default the client's retry budget (its
/// ``RetryMiddleware``'s), so a failing server does not get a reconnection storm.
public struct ReconnectionPolicy: Sendable {
    /// The reconnection time until the server sends a `retry` field: 3 s by default.
    public var reconnectionTime: Duration = .seconds(3)
    /// The longest wait between connections, however many failed in a row.
    public var maximumDelay: Duration = .seconds(60)
    /// Whether the wait is random between zero and the computed delay (full jitter).
    public var jitter = true
    /// The most reconnections (after the first connection) the stream or socket makes; `nil` for
    /// no limit besides ``budget``.
    public var maximumReconnections: Int?
    /// Where reconnections take their tokens: ``Budget/client`` (the default) for the
    /// client's retry budget, a budget of the connection's own, or none.
    public var budget: Budget = .client
    /// Waits between connections; tests replace it.
    var sleep: @Sendable (Duration) async throws -> Void = { try await Deadline.sleep(for: $0) }

    /// Where reconnections take their tokens.
    public enum Budget: Sendable {
        /// The client's retry budget, when its middleware has a ``RetryMiddleware`` with one.
        case client
        /// A budget of the connection's own.
        case custom(RetryBudget)
        /// None: only ``ReconnectionPolicy/maximumReconnections`` limits reconnections.
        case unlimited
    }

    /// The defaults: 3 s reconnection time, at most 60 s between connections, full
    /// jitter, no reconnection limit besides the client's retry budget.
    public init() {}

    /// Creates a policy; see the properties.
    public init(
        reconnectionTime: Duration = .seconds(3),
        maximumDelay: Duration = .seconds(60),
        jitter: Bool = true,
        maximumReconnections: Int? = nil,
        budget: Budget = .client
    ) {
        self.reconnectionTime = reconnectionTime
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.maximumReconnections = maximumReconnections
        self.budget = budget
    }

    /// The wait before a reconnection, after `failures` connections in a row that failed
    /// before delivering an event, with the server's reconnection time, if it sent one.
    func delay(afterFailures failures: Int, serverTime: Duration?) -> Duration {
        var delay = serverTime ?? reconnectionTime
        let cap = max(maximumDelay, delay)
        for _ in 0..<min(failures, 32) where delay < cap { delay = min(delay * 2, cap) }
        guard jitter else { return delay }
        return delay * Double.random(in: 0...1)
    }
}

extension Networker {
    /// The budget `policy`'s reconnections take their tokens from, if any.
    func reconnectionBudget(_ policy: ReconnectionPolicy) -> RetryBudget? {
        switch policy.budget {
        case .client: retryBudget
        case .custom(let budget): budget
        case .unlimited: nil
        }
    }
}
