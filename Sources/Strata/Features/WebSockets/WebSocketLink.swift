import HTTPTypes

/// One connection of a ``WebSocket``: the transport's channel, the handshake that opened it,
/// and the task that pings the peer and watches for idleness (``WebSocketKeepAlive``), which
/// ends with the connection.
final class WebSocketLink: Sendable {
    let channel: any WebSocketChannel
    let handshake: HTTPResponse
    let request: HTTPRequest
    private struct State {
        var keepAlive: WebSocketKeepAlive
        /// Why the keep-alive ended the connection, if it did.
        var failure: WebSocketError?
        var watch: Task<Void, Never>?
    }
    private let state: Locked<State>
    /// Whether messages are timed, for the idle timeout (without one, a message costs nothing here).
    private let timesMessages: Bool

    init(
        channel: any WebSocketChannel, handshake: HTTPResponse, request: HTTPRequest,
        configuration: WebSocketConfiguration
    ) {
        self.channel = channel
        self.handshake = handshake
        self.request = request
        state = Locked(State(keepAlive: WebSocketKeepAlive(configuration, now: .now)))
        timesMessages = configuration.idleTimeout != nil
        let watch = Task { [weak self] in _ = await self?.watch() }
        state.withLock { $0.watch = watch }
    }

    /// Why the keep-alive ended the connection, if it did.
    var failure: WebSocketError? { state.withLock { $0.failure } }

    /// A message went one way or the other.
    func messageMoved() {
        guard timesMessages else { return }
        state.withLock { $0.keepAlive.messageMoved(at: .now) }
    }

    /// Stops the keep-alive (the connection ended, or its socket is gone).
    func stop() {
        state.withLock { $0.watch }?.cancel()
    }

    /// Pings and watches until the connection ends or the keep-alive ends it.
    private func watch() async {
        while !Task.isCancelled {
            switch state.withLock({ $0.keepAlive.next(now: .now) }) {
            case .none:
                return
            case .sleep(let instant):
                do { try await Deadline.sleep(for: ContinuousClock.now.duration(to: instant)) } catch { return }
            case .ping:
                do {
                    try await channel.ping { [weak self] in self?.state.withLock { $0.keepAlive.pongReceived() } }
                } catch {
                    return  // the connection ended
                }
            case .unresponsive:
                state.withLock { $0.failure = .unresponsivePeer(pongTimeout: $0.keepAlive.pongTimeout) }
                channel.drop()
                return
            case .idle:
                let timeout = state.withLock { state in
                    state.failure = .idle(timeout: state.keepAlive.idleTimeout ?? .zero)
                    return state.keepAlive.idleTimeout ?? .zero
                }
                await channel.close(code: .goingAway, reason: "idle for \(timeout)")
                return
            }
        }
    }
}
