import HTTPTypes

/// A transport that opens WebSockets: it sends a call's request as the opening handshake
/// (an HTTP/1.1 upgrade) and hands over the open connection.
///
/// A ``Networker`` opens a socket (``Networker/webSocket(_:configuration:)-(Endpoint<Response>,_)``) over its
/// transport when the transport conforms. A transport that cannot open one on a platform
/// throws ``WebSocketError/unsupported(reason:)`` saying why.
public protocol WebSocketTransport: Sendable {
    /// Sends `request` (scheme `ws`, `wss`, `http` or `https`, with the header fields the
    /// client's steps added) as the opening handshake, offering `configuration`'s
    /// subprotocols, within `deadline`. Returns the open channel for a `101 Switching
    /// Protocols`, or the response and its body for any other status.
    func openWebSocket(
        _ request: HTTPRequest,
        configuration: WebSocketConfiguration,
        deadline: ContinuousClock.Instant?
    ) async throws -> WebSocketHandshake
}

/// The server's answer to an opening handshake.
public enum WebSocketHandshake: Sendable {
    /// `101 Switching Protocols`: the head, and the open connection.
    case upgraded(HTTPResponse, any WebSocketChannel)
    /// Any other answer: the head and its body.
    case refused(HTTPResponse, MessageBody?)
}

/// An open WebSocket as a transport provides it: messages in and out, pings, the close
/// handshake. The channel answers the peer's pings itself; when to ping the peer, and when
/// to give up on it, is the ``WebSocket``'s. One task at a time reads.
public protocol WebSocketChannel: Sendable {
    /// The next message, waiting for it; `nil` once the connection closed normally (see
    /// ``closure``). Throws ``WebSocketError`` for a message too large, or a
    /// ``TransportError`` when the connection failed.
    func receive() async throws -> WebSocketMessage?
    /// Sends `message`, waiting while the connection's outbound buffer is full.
    func send(_ message: WebSocketMessage) async throws
    /// Sends a ping; `pong` is called when the peer's answer to it arrives. Throws once the
    /// connection ended.
    func ping(_ pong: @escaping @Sendable () -> Void) async throws
    /// Drops the connection at once, without the close handshake (a peer that stopped
    /// answering would not complete it): a waiting read ends with a ``TransportError``.
    func drop()
    /// Starts the close handshake with `code` and `reason` and waits for it to end (or for
    /// the channel's own bound on it). Idempotent.
    func close(code: WebSocketCloseCode, reason: String?) async
    /// How the connection ended, once it did.
    var closure: WebSocketClosure? { get }
}
