import Foundation
import HTTPTypes
import Strata

/// The server's end of one WebSocket connection of a ``MockTransport``, as a stub's script
/// plays it: it reads what the client sent, sends messages, closes or drops the
/// connection, and answers (or ignores) the client's pings.
///
/// ```swift
/// let mock = MockTransport()
/// mock.webSocket("/rooms/:room") { peer in
///     try await peer.send(text: "welcome to \(peer.parameters["room"] ?? "")")
///     for await message in peer.messages {
///         try await peer.send(message)  // an echo
///     }
/// }
/// ```
///
/// The script runs once per connection, in a task of its own that ends with the
/// connection: when the client closes or the connection drops, ``messages`` ends and the
/// task is cancelled. When the script returns first, the peer closes with 1000
/// (`WebSocketCloseCode.normalClosure`); when it throws, with 1011
/// (`WebSocketCloseCode.internalError`). Messages the peer sent before it closed or
/// dropped are still delivered, in order.
public final class MockWebSocketPeer: Sendable {
    /// The opening handshake as it arrived, after the client's steps (header fields,
    /// token, tracing).
    public let request: HTTPRequest
    /// The `:name` parameters of the stub's path: `["room": "7"]` for `/rooms/:room`.
    public let parameters: [String: String]
    /// Which connection of its stub this is: 1 for the first the stub accepted, 2 for the
    /// next (a reconnection), and so on.
    public let connection: Int
    /// The messages the client sent, in order; the sequence ends when the connection
    /// ends (the client closed, either side dropped, or the peer closed). The client's
    /// sends are not bounded by the peer's pace. One task reads at a time.
    public var messages: AsyncStream<WebSocketMessage> { channel.outbound }

    let channel: MockWebSocketChannel

    init(request: HTTPRequest, parameters: [String: String], connection: Int, channel: MockWebSocketChannel) {
        self.request = request
        self.parameters = parameters
        self.connection = connection
        self.channel = channel
    }

    /// Whether the peer answers the client's pings; `true` by default. A peer that stops
    /// answering is dropped by the client's keep-alive after
    /// `WebSocketConfiguration.pongTimeout` (`WebSocketError.unresponsivePeer(pongTimeout:)`).
    public var answersPings: Bool {
        get { channel.answersPings }
        set { channel.answersPings = newValue }
    }

    /// How many pings the client sent, answered or not.
    public var pingsReceived: Int { channel.pingsReceived }

    /// How the connection ended, once it did, as the client sees it: the client's code and
    /// reason with `WebSocketClosure.byPeer` `false` when the client closed, this peer's
    /// with `true` when it closed or dropped (code 1006).
    public var closure: WebSocketClosure? { channel.closure }

    /// Sends `message` to the client, waiting while 16 messages are unread (back
    /// pressure: a slow reader does not make the peer's messages pile up).
    /// - Throws: `WebSocketError.closed(_:)` once the connection ended;
    ///   `CancellationError` when the task is cancelled while it waits.
    public func send(_ message: WebSocketMessage) async throws {
        try await channel.deliver(message)
    }

    /// Sends a text message; see ``send(_:)-(WebSocketMessage)``.
    public func send(text: String) async throws {
        try await channel.deliver(.text(text))
    }

    /// Sends a binary message; see ``send(_:)-(WebSocketMessage)``.
    public func send(_ data: Data) async throws {
        try await channel.deliver(.binary(data))
    }

    /// Closes the connection with `code` and `reason`, as a server's close frame does: the
    /// client reads the messages sent before it, then the end of the messages (`nil`), and
    /// its `WebSocket.closure` is `WebSocketClosure(code: code, reason: reason, byPeer: true)`.
    /// Nothing happens once the connection ended.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String? = nil) {
        channel.end(WebSocketClosure(code: code, reason: reason, byPeer: true))
    }

    /// Drops the connection without a close frame, as a lost network does: the client reads
    /// the messages sent before it, then its read throws a `StrataError` of kind
    /// `StrataError.Kind.transport` (`TransportError.Kind.connectionLost`), and its
    /// `WebSocket.closure` has code 1006 (`WebSocketCloseCode.abnormalClosure`).
    /// Nothing happens once the connection ended.
    public func drop() {
        channel.end(WebSocketClosure(code: .abnormalClosure, byPeer: true))
    }
}
