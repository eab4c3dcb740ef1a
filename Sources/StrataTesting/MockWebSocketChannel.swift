import Foundation
import Strata

/// One WebSocket connection of a ``MockTransport``, in memory: the client's end (a
/// `WebSocketChannel`, what the `WebSocket` reads and writes) and what its
/// ``MockWebSocketPeer`` does at the other end.
///
/// It keeps the semantics of the real channel: `receive()` returns the peer's messages in
/// order, then `nil` after the peer's close frame or throws `TransportError` of kind
/// `connectionLost` after a drop (close code 1006); a message over the configuration's
/// `maxMessageSize` closes with 1009 and throws `WebSocketError.messageTooLarge(limit:)`;
/// cancelling the reading task closes with 1001. The peer's sends wait while
/// ``capacity`` messages are unread (back pressure); the client's are not bounded.
///
/// The peer's task ends with the connection: whoever ends it, the task is cancelled, and
/// ``close(code:reason:)`` waits for it to return.
final class MockWebSocketChannel: WebSocketChannel, Sendable {
    /// How many of the peer's messages may wait for the client's reader before the peer's
    /// next send waits.
    static let capacity = 16

    private struct State {
        /// The peer's messages the client has not read, oldest first.
        var inbound: [WebSocketMessage] = []
        /// How the connection ended, once it did.
        var closure: WebSocketClosure?
        var answersPings = true
        var pingsReceived = 0
        /// The peer's script, while it runs.
        var peer: Task<Void, Never>?
        /// Reads and sends waiting for a change; each change wakes them all to look again.
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0

        /// The waiting reads and sends, forgotten here: the caller resumes them, outside the lock.
        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer { waiters = [:] }
            return Array(waiters.values)
        }
    }

    /// What a read finds.
    private enum Read {
        case message(WebSocketMessage)
        case tooLarge
        case end(WebSocketClosure)
        case wait
    }

    private let state = Locked(State())
    private let maxMessageSize: Int
    /// The client's messages, for the peer.
    let outbound: AsyncStream<WebSocketMessage>
    private let outboundWriter: AsyncStream<WebSocketMessage>.Continuation

    init(maxMessageSize: Int) {
        self.maxMessageSize = maxMessageSize
        (outbound, outboundWriter) = AsyncStream.makeStream(of: WebSocketMessage.self)
    }

    /// Runs `script` in a task of its own, cancelled when the connection ends; when it
    /// returns, the peer closes with 1000, when it throws, with 1011.
    func start(_ script: @escaping @Sendable () async throws -> Void) {
        let task = Task {
            do {
                try await script()
                self.end(WebSocketClosure(code: .normalClosure, byPeer: true))
            } catch {
                self.end(WebSocketClosure(code: .internalError, reason: "\(error)", byPeer: true))
            }
        }
        let ended = state.withLock { state in
            state.peer = task
            return state.closure != nil
        }
        if ended { task.cancel() }
    }

    // MARK: The client's end

    var closure: WebSocketClosure? { state.withLock { $0.closure } }

    func receive() async throws -> WebSocketMessage? {
        while true {
            switch read() {
            case .message(let message):
                return message
            case .tooLarge:
                end(WebSocketClosure(code: .messageTooBig, byPeer: false), discardingInbound: true)
                throw WebSocketError.messageTooLarge(limit: maxMessageSize)
            case .end(let closure):
                guard closure.code == .abnormalClosure else { return nil }
                throw TransportError(.connectionLost, detail: "the WebSocket ended without a close frame")
            case .wait:
                if Task.isCancelled {
                    // The reader gave up: the peer is told (1001), as a real connection would.
                    end(WebSocketClosure(code: .goingAway, byPeer: false), discardingInbound: true)
                    throw CancellationError()
                }
                await park { !$0.inbound.isEmpty || $0.closure != nil }
            }
        }
    }

    /// The next of the peer's messages, or how the connection ended once they are read.
    private func read() -> Read {
        let (read, waiters) = state.withLock { state -> (Read, [CheckedContinuation<Void, Never>]) in
            guard !state.inbound.isEmpty else { return (state.closure.map(Read.end) ?? .wait, []) }
            let message = state.inbound.removeFirst()
            guard message.data.count <= maxMessageSize else { return (.tooLarge, []) }
            return (.message(message), state.takeWaiters())
        }
        for waiter in waiters { waiter.resume() }
        return read
    }

    func send(_ message: WebSocketMessage) async throws {
        try state.withLock { state in
            if let closure = state.closure { throw WebSocketError.closed(closure) }
            outboundWriter.yield(message)
        }
    }

    func ping(_ pong: @escaping @Sendable () -> Void) async throws {
        let answered = try state.withLock { state in
            if let closure = state.closure { throw WebSocketError.closed(closure) }
            state.pingsReceived += 1
            return state.answersPings
        }
        if answered { pong() }
    }

    func drop() {
        end(WebSocketClosure(code: .abnormalClosure, byPeer: true), discardingInbound: true)
    }

    func close(code: WebSocketCloseCode, reason: String?) async {
        let peer = end(WebSocketClosure(code: code, reason: reason, byPeer: false), discardingInbound: true)
        await peer?.value
    }

    // MARK: The peer's end

    var answersPings: Bool {
        get { state.withLock { $0.answersPings } }
        set { state.withLock { $0.answersPings = newValue } }
    }

    var pingsReceived: Int { state.withLock { $0.pingsReceived } }

    /// Queues `message` for the client, waiting while ``capacity`` messages are unread.
    /// - Throws: `WebSocketError.closed(_:)` once the connection ended;
    ///   `CancellationError` when the task is cancelled while it waits.
    func deliver(_ message: WebSocketMessage) async throws {
        while true {
            let waiters = try state.withLock { state -> [CheckedContinuation<Void, Never>]? in
                if let closure = state.closure { throw WebSocketError.closed(closure) }
                guard state.inbound.count < Self.capacity else { return nil }
                state.inbound.append(message)
                return state.takeWaiters()
            }
            if let waiters {
                for waiter in waiters { waiter.resume() }
                return
            }
            try Task.checkCancellation()
            await park { $0.closure != nil || $0.inbound.count < Self.capacity }
        }
    }

    /// Ends the connection as `closure` says, unless it already ended: the peer's messages
    /// end, waiting reads and sends look again, the peer's task is cancelled. With
    /// `discardingInbound` (this side closed or dropped), unread messages are forgotten.
    /// Returns the peer's task, to wait for it.
    @discardableResult
    func end(_ closure: WebSocketClosure, discardingInbound: Bool = false) -> Task<Void, Never>? {
        let (waiters, peer) = state.withLock { state -> ([CheckedContinuation<Void, Never>]?, Task<Void, Never>?) in
            if discardingInbound { state.inbound = [] }
            guard state.closure == nil else { return (nil, state.peer) }
            state.closure = closure
            return (state.takeWaiters(), state.peer)
        }
        guard let waiters else { return peer }
        outboundWriter.finish()
        for waiter in waiters { waiter.resume() }
        peer?.cancel()
        return peer
    }

    /// Waits until `ready` holds, something changed, or the task is cancelled.
    private func park(until ready: (State) -> Bool) async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    guard !Task.isCancelled, !ready(state) else { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
