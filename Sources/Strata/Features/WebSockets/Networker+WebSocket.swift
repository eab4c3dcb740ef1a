import Foundation
import HTTPTypes

extension Networker {
    /// Opens a WebSocket: `request` (a `ws`, `wss`, `http` or `https` route) goes through
    /// the client's steps as the opening handshake — header fields, a bearer token refreshed
    /// once on a `401`, logging, tracing, recording — under the client's deadline, and the
    /// transport (``WebSocketTransport``) upgrades it. After the upgrade, the call's
    /// deadline no longer applies: the connection lives until it is closed.
    ///
    /// - Throws: ``StrataError``: ``StrataError/Kind/unacceptableStatus`` with the response
    ///   and its body when the server refused the upgrade;
    ///   ``StrataError/Kind/webSocket`` (``WebSocketError/unsupported(reason:)``) when the
    ///   client's transport cannot open WebSockets; the stages of any call otherwise.
    public func webSocket<Route: URLRouteProvider>(
        _ request: RequestDescription<Route>,
        configuration socketConfiguration: WebSocketConfiguration = WebSocketConfiguration()
    ) async throws(StrataError) -> WebSocket {
        guard let sockets = transport as? any WebSocketTransport else {
            throw StrataError(
                .webSocket,
                underlying: WebSocketError.unsupported(reason: "\(type(of: transport)) does not open WebSockets"))
        }
        var head: HTTPRequest
        do {
            head = try request.encoded(jsonEncoder: configuration.jsonEncoder).head
        } catch let error as URLRouteError {
            throw StrataError(.invalidURL, underlying: error)
        } catch {
            throw StrataError(.encoding, underlying: error)
        }
        if !socketConfiguration.subprotocols.isEmpty {
            head.headerFields[.secWebSocketProtocol] = socketConfiguration.subprotocols.joined(separator: ", ")
        }
        let upgrade = WebSocketUpgrade(sockets: sockets, configuration: socketConfiguration)
        let (response, body) = try await send(head, body: nil, through: upgrade)
        guard response.status == .switchingProtocols, let (sent, channel) = upgrade.take() else {
            let errorBody = await body.prefix(configuration.errorBodyLimit + 1)
            throw StrataError(
                .unacceptableStatus, request: head, response: response, body: errorBody,
                bodyLimit: configuration.errorBodyLimit)
        }
        return WebSocket(channel: channel, handshake: response, request: sent)
    }
}

/// The transport a handshake ends in: the client's ``WebSocketTransport`` upgrading the
/// request its steps made, keeping the open channel for the caller. A step that sends the
/// request again (a refreshed token, a redirect) replaces it.
struct WebSocketUpgrade: Transport {
    let sockets: any WebSocketTransport
    let configuration: WebSocketConfiguration
    private let opened = Locked<(HTTPRequest, any WebSocketChannel)?>(nil)

    init(sockets: any WebSocketTransport, configuration: WebSocketConfiguration) {
        self.sockets = sockets
        self.configuration = configuration
    }

    /// The request that was upgraded and its channel, once.
    func take() -> (HTTPRequest, any WebSocketChannel)? {
        opened.withLock { opened in
            defer { opened = nil }
            return opened
        }
    }

    func send(
        _ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?
    ) async throws -> (HTTPResponse, MessageBody?) {
        let handshake: WebSocketHandshake
        do {
            handshake = try await sockets.openWebSocket(request, configuration: configuration, deadline: deadline)
        } catch let error as WebSocketError {
            throw StrataError(.webSocket, underlying: error, request: request)
        }
        switch handshake {
        case .upgraded(let head, let channel):
            let replaced = opened.withLock { opened in
                defer { opened = (request, channel) }
                return opened?.1
            }
            await replaced?.close(code: .goingAway, reason: nil)
            return (head, nil)
        case .refused(let head, let body):
            return (head, body)
        }
    }
}
