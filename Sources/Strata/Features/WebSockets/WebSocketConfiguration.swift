/// How a WebSocket connection behaves; the defaults suit most apps.
public struct WebSocketConfiguration: Sendable {
    /// The largest message read, reassembled from its frames; a larger one ends the
    /// connection with close code 1009 (``WebSocketCloseCode/messageTooBig``) and a
    /// ``WebSocketError/messageTooLarge(limit:)``. 1 MiB by default.
    public var maxMessageSize = 1 << 20
    /// How often a ping goes to the peer; a peer that does not answer one within the same
    /// interval ends the connection. `nil` sends none. 30 seconds by default.
    public var pingInterval: Duration? = .seconds(30)
    /// The subprotocols offered in `Sec-WebSocket-Protocol`, preferred first; the one the
    /// server chose is ``WebSocket/subprotocol``.
    public var subprotocols: [String] = []

    /// The defaults: 1 MiB messages, a ping every 30 seconds, no subprotocol.
    public init() {}
}
