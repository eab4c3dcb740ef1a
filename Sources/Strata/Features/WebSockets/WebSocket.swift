import Foundation
import HTTPTypes

/// An open WebSocket of a ``Networker``: send messages, read them as they arrive, close.
///
/// ```swift
/// let socket = try await networker.webSocket(RequestDescription(route: "wss://chat.example.com/rooms/7"))
/// try await socket.send(text: "hello")
/// for try await message in socket.messages {
///     if case .text(let line) = message { print(line) }
/// }
/// ```
///
/// The socket pings the peer (``WebSocketConfiguration/pingInterval``) and ends a
/// connection whose peer stops answering, or that stays idle past
/// ``WebSocketConfiguration/idleTimeout``. With ``WebSocketConfiguration/reconnection``,
/// the reader of ``messages`` reconnects after a drop and reading goes on.
///
/// Errors are ``StrataError``s: ``StrataError/Kind/webSocket`` when the connection was
/// closed, a message was too large, or the keep-alive gave up (``StrataError/webSocketError``),
/// and ``StrataError/Kind/transport`` when it failed underneath. Dropping the last reference
/// closes the connection with 1001 (``WebSocketCloseCode/goingAway``).
public final class WebSocket: Sendable {
    private struct State {
        var link: WebSocketLink
        var connections = 1
        /// Reconnections tried, those that failed included.
        var reconnections = 0
        /// Connections in a row that ended before they delivered a message.
        var failuresInARow = 0
        /// Whether this side closed (no reconnection after that).
        var closedHere = false
    }

    private let state: Locked<State>
    private let reconnection: WebSocketReconnection?
    private let budget: RetryBudget?
    /// Opens another connection through the client's steps.
    private let connect: @Sendable () async throws(StrataError) -> WebSocketLink

    init(
        link: WebSocketLink,
        reconnection: WebSocketReconnection?,
        budget: RetryBudget?,
        connect: @escaping @Sendable () async throws(StrataError) -> WebSocketLink
    ) {
        state = Locked(State(link: link))
        self.reconnection = reconnection
        self.budget = budget
        self.connect = connect
    }

    deinit {
        let link = state.withLock { $0.link }
        link.stop()
        if link.channel.closure == nil { Task { await link.channel.close(code: .goingAway, reason: nil) } }
    }

    private var link: WebSocketLink { state.withLock { $0.link } }

    /// The server's answer to the opening handshake (`101 Switching Protocols`) of the
    /// current connection.
    public var handshake: HTTPResponse { link.handshake }

    /// The current connection's handshake request, as it left the client's steps.
    public var request: HTTPRequest { link.request }

    /// The subprotocol the server chose among ``WebSocketConfiguration/subprotocols``.
    public var subprotocol: String? { handshake.headerFields[.secWebSocketProtocol] }

    /// How the current connection ended, once it did.
    public var closure: WebSocketClosure? { link.channel.closure }

    /// How many connections the socket opened: 1, and one more for each reconnection.
    public var connections: Int { state.withLock { $0.connections } }

    /// The messages as they arrive, read at the reader's pace: the end of the sequence is
    /// the close handshake (see ``closure``). One task reads at a time.
    public var messages: Messages { Messages(socket: self) }

    /// Sends `message` on the current connection, waiting while its outbound buffer is full.
    /// - Throws: ``StrataError``: ``StrataError/Kind/webSocket`` once the connection closed
    ///   (while it reconnects too).
    public func send(_ message: WebSocketMessage) async throws(StrataError) {
        let link = self.link
        do {
            try await link.channel.send(message)
            link.messageMoved()
        } catch {
            throw failure(error, on: link)
        }
    }

    /// Sends a text message.
    public func send(text: String) async throws(StrataError) {
        try await send(.text(text))
    }

    /// Sends a binary message.
    public func send(_ data: Data) async throws(StrataError) {
        try await send(.binary(data))
    }

    /// Closes the connection with `code` and `reason`, and waits for the close handshake;
    /// the socket does not reconnect after that.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String? = nil) async {
        let link = state.withLock { state in
            state.closedHere = true
            return state.link
        }
        link.stop()
        await link.channel.close(code: code, reason: reason)
    }

    /// The next message, for ``Messages``: reconnects as ``WebSocketConfiguration/reconnection``
    /// says when the connection drops. `delivering` is the connection the reader's last
    /// message came from. Inlined into the iterator's `next()`, its one caller: an async
    /// call less a message.
    @inline(__always)
    func receive(_ delivering: inout WebSocketLink?) async throws(StrataError) -> WebSocketMessage? {
        while true {
            let link = self.link
            let drop: StrataError
            do {
                if let message = try await link.channel.receive() {
                    link.messageMoved()
                    delivering = link
                    return message
                }
                // The close handshake ended the connection: the end of the messages, unless
                // the keep-alive closed it, or the peer's code asks for a reconnection.
                link.stop()
                if let failure = link.failure { throw failure }
                guard let closure = link.channel.closure, reconnects(after: closure) else { return nil }
                drop = StrataError(.webSocket, underlying: WebSocketError.closed(closure), request: link.request)
            } catch {
                link.stop()
                let failure = failure(error, on: link)
                guard !Task.isCancelled, reconnects(after: failure) else { throw failure }
                drop = failure
            }
            try await reconnect(after: drop, delivered: delivering === link)
        }
    }

    /// Whether a connection that ended with `closure` is followed by another.
    private func reconnects(after closure: WebSocketClosure) -> Bool {
        guard let reconnection, !state.withLock({ $0.closedHere }) else { return false }
        return reconnection.reconnects(after: closure)
    }

    /// Whether a connection that failed with `error` is followed by another: a lost
    /// connection, a silent peer, a peer's close frame with a code that is not final.
    private func reconnects(after error: StrataError) -> Bool {
        guard reconnection != nil, !state.withLock({ $0.closedHere }) else { return false }
        switch error.webSocketError {
        case .unresponsivePeer: return true
        case .closed(let closure): return reconnects(after: closure)
        case .some: return false
        case nil: return error.kind == .transport
        }
    }

    /// Waits as the policy says and opens the next connection, until one opens; throws
    /// `error` (the drop) when no reconnection is left. `delivered`: whether the connection
    /// that dropped delivered a message.
    private func reconnect(after error: StrataError, delivered: Bool) async throws(StrataError) {
        guard let reconnection else { throw error }
        var lastError = error
        var failuresInARow = state.withLock { state in
            state.failuresInARow = delivered ? 0 : state.failuresInARow + 1
            return state.failuresInARow
        }
        while true {
            let reconnections = state.withLock { state in
                defer { state.reconnections += 1 }
                return state.reconnections
            }
            if let limit = reconnection.policy.maximumReconnections, reconnections >= limit { throw lastError }
            if let budget, !budget.withdraw() { throw lastError }
            do {
                try await reconnection.policy.sleep(
                    reconnection.policy.delay(afterFailures: failuresInARow, serverTime: nil))
            } catch {
                throw StrataError(.cancelled, request: lastError.request)
            }
            let link: WebSocketLink
            do {
                link = try await connect()
            } catch  where error.kind == .transport {
                lastError = error
                failuresInARow += 1
                continue
            }
            let closedMeanwhile = state.withLock { state in
                guard !state.closedHere else { return true }
                state.link = link
                state.connections += 1
                state.failuresInARow = failuresInARow
                return false
            }
            if closedMeanwhile {
                link.stop()
                await link.channel.close(code: .goingAway, reason: nil)
                throw lastError
            }
            try await subscribe()
            return
        }
    }

    /// Runs the reconnection's ``WebSocketReconnection/onConnect`` on the current connection.
    /// A failure because that connection already dropped is left for the reader, who
    /// notices the drop and reconnects.
    func subscribe() async throws(StrataError) {
        guard let onConnect = reconnection?.onConnect else { return }
        do {
            try await onConnect(self)
        } catch let error as StrataError {
            if error.kind == .transport { return }
            if case .closed(let closure)? = error.webSocketError, reconnects(after: closure) { return }
            throw error
        } catch {
            throw StrataError(.webSocket, underlying: error, request: request, response: handshake)
        }
    }

    /// The ``StrataError`` for what `link`'s channel threw: the keep-alive's reason when it
    /// ended the connection.
    private func failure(_ error: any Error, on link: WebSocketLink) -> StrataError {
        let request = link.request
        let response = link.handshake
        if let failure = link.failure {
            return StrataError(.webSocket, underlying: failure, request: request, response: response)
        }
        if let error = error as? WebSocketError {
            return StrataError(.webSocket, underlying: error, request: request, response: response)
        }
        return StrataError.ending(
            error, request: request, response: response, deadlinePassed: false, taskCancelled: false)
    }

    /// The messages of a ``WebSocket`` as they arrive; each read throws a ``StrataError``.
    public struct Messages: AsyncSequence, Sendable {
        /// One message.
        public typealias Element = WebSocketMessage
        let socket: WebSocket

        /// Reads the socket's messages.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let socket: WebSocket
            /// The connection the last message came from.
            private var delivering: WebSocketLink?

            init(socket: WebSocket) {
                self.socket = socket
            }

            /// The next message, or `nil` once the connection closed normally.
            /// - Throws: ``StrataError``.
            public mutating func next() async throws -> WebSocketMessage? {
                try await socket.receive(&delivering)
            }
        }

        /// An iterator over the messages.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(socket: socket) }
    }
}
