import Foundation

/// One WebSocket message, reassembled from its frames: text or bytes. Pings, pongs and
/// the close handshake are handled by the connection and never show up as messages.
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message (valid UTF-8 on the wire).
    case text(String)
    /// A binary message.
    case binary(Data)

    /// The message's bytes: the UTF-8 of a text message, or the binary message's own.
    public var data: Data {
        switch self {
        case .text(let text): Data(text.utf8)
        case .binary(let data): data
        }
    }
}
