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
/// Errors are ``StrataError``s: ``StrataError/Kind/webSocket`` when the connection was
/// closed or a message was too large (``StrataError/webSocketError``), and
/// ``StrataError/Kind/transport`` when it failed underneath. Dropping the last reference
/// closes the connection with 1001 (``WebSocketCloseCode/goingAway``).
public final class WebSocket: Sendable {
    /// The server's answer to the opening handshake (`101 Switching Protocols`).
    public let handshake: HTTPResponse
    /// The handshake's request, as it left the client's steps.
    public let request: HTTPRequest
    private let channel: any WebSocketChannel

    init(channel: any WebSocketChannel, handshake: HTTPResponse, request: HTTPRequest) {
        self.channel = channel
        self.handshake = handshake
        self.request = request
    }

    deinit {
        let channel = self.channel
        if channel.closure == nil { Task { await channel.close(code: .goingAway, reason: nil) } }
    }

    /// The subprotocol the server chose among ``WebSocketConfiguration/subprotocols``.
    public var subprotocol: String? { handshake.headerFields[.secWebSocketProtocol] }

    /// How the connection ended, once it did.
    public var closure: WebSocketClosure? { channel.closure }

    /// The messages as they arrive, read at the reader's pace: the end of the sequence is
    /// the close handshake (see ``closure``). One task reads at a time.
    public var messages: Messages { Messages(socket: self) }

    /// Sends `message`, waiting while the connection's outbound buffer is full.
    /// - Throws: ``StrataError``: ``StrataError/Kind/webSocket`` once the connection closed.
    public func send(_ message: WebSocketMessage) async throws(StrataError) {
        do {
            try await channel.send(message)
        } catch {
            throw failure(error)
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

    /// Closes the connection with `code` and `reason`, and waits for the close handshake.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String? = nil) async {
        await channel.close(code: code, reason: reason)
    }

    /// The next message, for ``Messages``.
    func receive() async throws(StrataError) -> WebSocketMessage? {
        do {
            return try await channel.receive()
        } catch {
            throw failure(error)
        }
    }

    /// The ``StrataError`` for what the channel threw.
    private func failure(_ error: any Error) -> StrataError {
        switch error {
        case let error as StrataError: error
        case let error as WebSocketError:
            StrataError(.webSocket, underlying: error, request: request, response: handshake)
        case let error as TransportError:
            StrataError(.transport, underlying: error, request: request, response: handshake, phase: .readingBody)
        case is CancellationError: StrataError(.cancelled, request: request, response: handshake)
        default:
            StrataError(
                .transport, underlying: TransportError(.other, underlying: error), request: request,
                response: handshake, phase: .readingBody)
        }
    }

    /// The messages of a ``WebSocket`` as they arrive; each read throws a ``StrataError``.
    public struct Messages: AsyncSequence, Sendable {
        /// One message.
        public typealias Element = WebSocketMessage
        let socket: WebSocket

        /// Reads the socket's messages.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let socket: WebSocket

            /// The next message, or `nil` once the connection closed normally.
            /// - Throws: ``StrataError``.
            public mutating func next() async throws -> WebSocketMessage? {
                try await socket.receive()
            }
        }

        /// An iterator over the messages.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(socket: socket) }
    }
}
