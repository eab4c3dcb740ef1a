/// How a ``WebSocket`` reconnects after its connection drops (opt in with
/// ``WebSocketConfiguration/reconnection``).
///
/// The reader of ``WebSocket/messages`` notices the drop (a lost connection, a peer that
/// stopped answering pings, a close frame with a code that is not final), waits as
/// ``policy`` says (jittered backoff, taking a token from the client's retry budget), opens
/// a new connection through the client's steps as the first one was, runs ``onConnect``,
/// and goes on reading. It stops, with the error of the last drop, when the policy has no
/// reconnection left, when a reconnection is refused (a status other than 101), when the
/// peer closes with a final code, when this side closed, and when the reading task is
/// cancelled.
///
/// ```swift
/// var configuration = WebSocketConfiguration()
/// configuration.reconnection = WebSocketReconnection { socket in
///     try await socket.send(text: #"{"subscribe":"prices"}"#)
/// }
/// let socket = try await networker.webSocket(request, configuration: configuration)
/// ```
public struct WebSocketReconnection: Sendable {
    /// When to reconnect and how often; by default 3 s apart at first, backing off to 60 s,
    /// with full jitter, within the client's retry budget.
    public var policy: ReconnectionPolicy
    /// The close codes after which the socket does not come back: by default 1000 (the
    /// server ended the conversation), 1003 (unsupported data) and 1008 (policy violation).
    public var finalCodes: Set<WebSocketCloseCode>
    /// Whether the application's codes (4000–4999) are final too; `true` by default.
    public var applicationCodesAreFinal: Bool
    /// Runs after each connection opens, the first included, before its messages are read:
    /// subscribe here, once, and every reconnection subscribes again. A failure because the
    /// connection dropped meanwhile is the reader's to notice (it reconnects); any other ends
    /// the socket with that error (a ``StrataError`` as it is, anything else as the underlying
    /// error of a ``StrataError/Kind/webSocket``).
    public var onConnect: (@Sendable (WebSocket) async throws -> Void)?

    /// A reconnection; see the properties.
    public init(
        policy: ReconnectionPolicy = ReconnectionPolicy(),
        finalCodes: Set<WebSocketCloseCode> = [.normalClosure, .unsupportedData, .policyViolation],
        applicationCodesAreFinal: Bool = true,
        onConnect: (@Sendable (WebSocket) async throws -> Void)? = nil
    ) {
        self.policy = policy
        self.finalCodes = finalCodes
        self.applicationCodesAreFinal = applicationCodesAreFinal
        self.onConnect = onConnect
    }

    /// Whether a connection that ended with `closure` is worth another.
    func reconnects(after closure: WebSocketClosure) -> Bool {
        guard closure.byPeer else { return false }
        if finalCodes.contains(closure.code) { return false }
        return !(applicationCodesAreFinal && (4000...4999).contains(closure.code.rawValue))
    }
}
