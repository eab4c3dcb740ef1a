import Foundation

#if canImport(Network)
    import Network
#endif

/// Whether the network can be reached, as the app learns it, and the outboxes to wake
/// when it can again: an ``Outbox`` waiting out a backoff after a failed attempt tries at
/// once when ``update(isReachable:)`` says the network is back, and waits without sending
/// while it says it is not (read by ``OutboxPolicy/isReachable``).
///
/// ```swift
/// let reachability = Reachability()  // on Apple platforms, `Reachability.systemNetworkPath()`
/// let outbox = Outbox(networker: networker, policy: OutboxPolicy(isReachable: { reachability.isReachable }))
/// reachability.wakes(outbox)
/// reachability.update(isReachable: false)  // from the app's own probe, on Linux
/// ```
public final class Reachability: Sendable {
    private struct State {
        var isReachable: Bool
        var outboxes: [WeakOutbox] = []
    }

    /// An outbox this does not keep alive. It lives only inside `state`, under its lock.
    private struct WeakOutbox {
        weak var outbox: Outbox?
    }

    private let state: Locked<State>
    /// What feeds ``update(isReachable:)`` on its own (the system's path monitor), kept
    /// while this object lives and cancelled with it.
    private let source: Locked<AnyObject?>

    /// Creates a reachability that the app updates, reachable until it says otherwise.
    public init(isReachable: Bool = true) {
        self.state = Locked(State(isReachable: isReachable))
        self.source = Locked(nil)
    }

    /// Whether the network can be reached, as last updated.
    public var isReachable: Bool { state.withLock { $0.isReachable } }

    /// Records whether the network can be reached; when it becomes reachable, every outbox
    /// of ``wakes(_:)`` drains at once.
    public func update(isReachable: Bool) {
        let woken = state.withLock { state -> [Outbox] in
            let cameBack = isReachable && !state.isReachable
            state.isReachable = isReachable
            state.outboxes.removeAll { $0.outbox == nil }
            return cameBack ? state.outboxes.compactMap(\.outbox) : []
        }
        for outbox in woken { Task { await outbox.drain() } }
    }

    /// Makes `outbox` drain when the network becomes reachable again. The outbox is not
    /// kept alive by this.
    public func wakes(_ outbox: Outbox) {
        state.withLock { $0.outboxes.append(WeakOutbox(outbox: outbox)) }
    }

    deinit {
        #if canImport(Network)
            source.withLock { ($0 as? NWPathMonitor)?.cancel() }
        #endif
    }
}

#if canImport(Network)
    extension Reachability {
        /// The system's network path (`NWPathMonitor`): reachable while the path is
        /// satisfied; outboxes of ``wakes(_:)`` drain as soon as it is again.
        public static func systemNetworkPath() -> Reachability {
            let reachability = Reachability()
            let monitor = NWPathMonitor()
            monitor.pathUpdateHandler = { [weak reachability] path in
                reachability?.update(isReachable: path.status == .satisfied)
            }
            monitor.start(queue: DispatchQueue(label: "strata.reachability"))
            reachability.source.withLock { $0 = monitor }
            return reachability
        }
    }
#endif
