import Foundation
import HTTPTypes

/// One registered WebSocket answer of a ``MockTransport``: which opening handshakes it
/// takes and whether it accepts them.
struct MockWebSocketStub: Sendable {
    /// What the stub does with a handshake it takes.
    enum Action: Sendable {
        /// Upgrades (`101`, choosing `subprotocol` when set) and runs `script` as the peer.
        case accept(subprotocol: String?, script: @Sendable (MockWebSocketPeer) async throws -> Void)
        /// Answers with this response instead of upgrading (or throws its error).
        case refuse(MockResponse)
    }

    /// Distinguishes stubs in the call counts (shared with the HTTP stubs' identifiers).
    let id: Int
    let pattern: MockPathPattern
    let query: [String: String]
    /// When set, the stub takes only the handshakes for which it returns `true`.
    let condition: (@Sendable (RecordedRequest) -> Bool)?
    let action: Action

    /// `WS /chat/:room?v=2`, for error messages.
    var description: String {
        let queryText = query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        let conditional = condition == nil ? "" : " (conditional)"
        return "WS \(pattern)" + (queryText.isEmpty ? "" : "?\(queryText)") + conditional
    }

    /// The path parameters when the stub takes `request`, `nil` when it does not.
    func match(_ request: RecordedRequest) -> [String: String]? {
        let target = MockRequestTarget(request.head.path)
        guard target.contains(query), let parameters = pattern.match(target.path) else { return nil }
        guard condition?(request) ?? true else { return nil }
        return parameters
    }
}
