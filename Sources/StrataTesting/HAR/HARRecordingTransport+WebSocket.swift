import HTTPTypes
import Strata

/// Opening handshakes recorded as any exchange: a socket opened through a recording
/// transport leaves an entry with the upgrade request and the `101` (or the refusal and its
/// body). The messages after the `101` are not recorded: HAR has no place for them.
extension HARRecordingTransport: WebSocketTransport {
    /// Opens the socket through ``base`` and records the handshake.
    /// - Throws: `WebSocketError.unsupported(reason:)` when ``base`` opens no WebSockets,
    ///   and whatever ``base`` throws.
    public func openWebSocket(
        _ request: HTTPRequest,
        configuration: WebSocketConfiguration,
        deadline: ContinuousClock.Instant?
    ) async throws -> WebSocketHandshake {
        guard let sockets = base as? any WebSocketTransport else {
            throw WebSocketError.unsupported(reason: "\(type(of: base)) does not open WebSockets")
        }
        let exchange = HAREntryRecording(request: request, redaction: redaction, maxBodySize: maxBodySize)
        let handshake = try await sockets.openWebSocket(request, configuration: configuration, deadline: deadline)
        switch handshake {
        case .upgraded(let head, _):
            exchange.headArrived(head, protocolVersion: "HTTP/1.1", slot: recorder.reserve(), recorder: recorder)
            exchange.finish()
            return handshake
        case .refused(let head, let body):
            exchange.headArrived(head, protocolVersion: "HTTP/1.1", slot: recorder.reserve(), recorder: recorder)
            guard let body else {
                exchange.finish()
                return handshake
            }
            return .refused(head, exchange.responseBody.tee(body) { exchange.finish() })
        }
    }
}
