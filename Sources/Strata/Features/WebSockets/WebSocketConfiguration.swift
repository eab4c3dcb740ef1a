/// How a WebSocket connection behaves; the defaults suit most apps.
public struct WebSocketConfiguration: Sendable {
    /// The largest message read, reassembled from its frames (and inflated, with
    /// ``usesCompression``); a larger one ends the connection with close code 1009
    /// (``WebSocketCloseCode/messageTooBig``) and a ``WebSocketError/messageTooLarge(limit:)``.
    /// 1 MiB by default.
    public var maxMessageSize = 1 << 20
    /// How often a ping goes to the peer; `nil` sends none. 30 seconds by default.
    public var pingInterval: Duration? = .seconds(30)
    /// How long the peer has to answer a ping: a peer that does not ends the connection
    /// with ``WebSocketError/unresponsivePeer(pongTimeout:)``, so a silent peer is noticed
    /// within ``pingInterval`` + this. 10 seconds by default.
    public var pongTimeout: Duration = .seconds(10)
    /// How long the connection may go without a message either way before it is closed
    /// with 1001 and ``WebSocketError/idle(timeout:)``; pings do not count. `nil` (the
    /// default) for no limit.
    public var idleTimeout: Duration?
    /// The subprotocols offered in `Sec-WebSocket-Protocol`, preferred first; the one the
    /// server chose is ``WebSocket/subprotocol``.
    public var subprotocols: [String] = []
    /// Whether the handshake offers permessage-deflate (RFC 7692): messages are
    /// compressed both ways when the server accepts, and an inflated message is bounded by
    /// ``maxMessageSize``. Off by default; transports that cannot compress ignore it.
    public var usesCompression = false
    /// Whether and how the socket reconnects after its connection drops; `nil` (the
    /// default) for never.
    public var reconnection: WebSocketReconnection?

    /// The defaults: 1 MiB messages, a ping every 30 seconds answered within 10, no idle
    /// limit, no subprotocol, no compression, no reconnection.
    public init() {}
}
