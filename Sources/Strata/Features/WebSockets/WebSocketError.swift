/// Why a WebSocket failed, in a ``StrataError`` of kind ``StrataError/Kind/webSocket``
/// (``StrataError/webSocketError``). A handshake the server refused is a status failure
/// instead (``StrataError/Kind/unacceptableStatus``, with the response and its body), and a
/// connection that failed underneath is ``StrataError/Kind/transport``.
public enum WebSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The client's transport cannot open WebSockets; `reason` says why.
    case unsupported(reason: String)
    /// The connection was closed (by the peer, or by this side before the operation).
    case closed(WebSocketClosure)
    /// A message larger than ``WebSocketConfiguration/maxMessageSize`` arrived; the
    /// connection was closed with 1009.
    case messageTooLarge(limit: Int)
    /// The peer did not answer a ping within ``WebSocketConfiguration/pongTimeout``; the
    /// connection was dropped.
    case unresponsivePeer(pongTimeout: Duration)
    /// No message went either way for ``WebSocketConfiguration/idleTimeout``; the
    /// connection was closed with 1001.
    case idle(timeout: Duration)

    /// One line for logs.
    public var description: String {
        switch self {
        case .unsupported(let reason): "WebSockets unsupported: \(reason)"
        case .closed(let closure): "closed: \(closure)"
        case .messageTooLarge(let limit): "message larger than \(limit) bytes (closed with 1009)"
        case .unresponsivePeer(let timeout): "the peer did not answer a ping within \(timeout)"
        case .idle(let timeout): "no message either way for \(timeout) (closed with 1001)"
        }
    }
}

extension StrataError.Kind {
    /// A WebSocket failed: it was closed, a message was too large, or the transport cannot
    /// open one; see ``StrataError/webSocketError``.
    public static let webSocket = StrataError.Kind("webSocket") { error in
        "WebSocket \(error.underlying.map { String(describing: $0) } ?? "failed")"
    }
}

extension StrataError {
    /// Why the WebSocket failed, for an error of kind ``Kind/webSocket``.
    public var webSocketError: WebSocketError? { underlying as? WebSocketError }
}
