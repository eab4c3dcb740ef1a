/// A close code of the WebSocket protocol (RFC 6455, section 7.4): why a connection
/// ended. Codes 4000–4999 are the application's own.
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as sent on the wire.
    public let rawValue: UInt16

    /// A close code.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 1000: the purpose of the connection was fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the peer is going away (a server shutting down, a page left).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: a protocol error (a masked frame from a server, a reserved opcode or bit).
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: a kind of data the endpoint cannot accept.
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1006: the connection ended without a close frame (never sent on the wire).
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: a text message that is not valid UTF-8.
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a message that violates the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message larger than the endpoint accepts.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1011: the server met an unexpected condition.
    public static let internalError = WebSocketCloseCode(rawValue: 1011)

    /// The number, `1000`.
    public var description: String { "\(rawValue)" }
}

/// How a WebSocket connection ended: the close code and reason, and who closed it.
public struct WebSocketClosure: Sendable, Hashable, CustomStringConvertible {
    /// The close code (``WebSocketCloseCode/abnormalClosure`` when the connection dropped
    /// without a close frame).
    public var code: WebSocketCloseCode
    /// The reason given with the code, if any.
    public var reason: String?
    /// Whether the peer closed first (or dropped the connection); `false` when this side did.
    public var byPeer: Bool

    /// A closure.
    public init(code: WebSocketCloseCode, reason: String? = nil, byPeer: Bool) {
        self.code = code
        self.reason = reason
        self.byPeer = byPeer
    }

    /// `1001 "restarting" (by the peer)`.
    public var description: String {
        "\(code)\(reason.map { " \"\($0)\"" } ?? "") (by \(byPeer ? "the peer" : "this side"))"
    }
}
