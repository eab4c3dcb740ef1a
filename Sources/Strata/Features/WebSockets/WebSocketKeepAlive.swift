/// When a connection pings, and when it gives up on a silent peer or an idle conversation:
/// a plain value driven by the time and by what happened (a message, a pong), the same for
/// every transport. `WebSocketLink` runs it.
struct WebSocketKeepAlive: Sendable {
    /// What to do now.
    enum Action: Equatable {
        /// Nothing until then.
        case sleep(until: ContinuousClock.Instant)
        /// Send a ping (its pong is expected by ``WebSocketConfiguration/pongTimeout``).
        case ping
        /// The peer did not answer the last ping in time.
        case unresponsive
        /// No message either way for the idle timeout.
        case idle
        /// Nothing to watch: no pings, no idle limit.
        case none
    }

    let pingInterval: Duration?
    let pongTimeout: Duration
    let idleTimeout: Duration?
    private var lastMessage: ContinuousClock.Instant
    private var nextPing: ContinuousClock.Instant?
    /// When the pong of the ping sent last is due, while it is.
    private var pongDue: ContinuousClock.Instant?

    init(_ configuration: WebSocketConfiguration, now: ContinuousClock.Instant) {
        pingInterval = configuration.pingInterval
        pongTimeout = configuration.pongTimeout
        idleTimeout = configuration.idleTimeout
        lastMessage = now
        nextPing = pingInterval.map { now + $0 }
    }

    /// What to do at `now`; a ``Action/ping`` counts as sent.
    mutating func next(now: ContinuousClock.Instant) -> Action {
        let idleEnd = idleTimeout.map { lastMessage + $0 }
        if let idleEnd, now >= idleEnd { return .idle }
        if let pongDue, now >= pongDue { return .unresponsive }
        if let ping = nextPing, now >= ping, let pingInterval {
            nextPing = now + pingInterval
            // One ping in flight at a time: the next waits for its pong or its timeout.
            guard pongDue == nil else { return next(now: now) }
            pongDue = now + pongTimeout
            return .ping
        }
        guard let wake = [idleEnd, pongDue, nextPing].compactMap({ $0 }).min() else { return .none }
        return .sleep(until: wake)
    }

    /// The pong of the last ping arrived.
    mutating func pongReceived() {
        pongDue = nil
    }

    /// A message went one way or the other at `now`.
    mutating func messageMoved(at now: ContinuousClock.Instant) {
        lastMessage = now
    }
}
