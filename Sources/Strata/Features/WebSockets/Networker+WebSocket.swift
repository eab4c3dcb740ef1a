import Foundation
import HTTPTypes

extension Networker {
    /// Opens a WebSocket: `endpoint`'s request (a `ws`, `wss`, `http` or `https` route) goes through
    /// the client's steps as the opening handshake — header fields, a bearer token refreshed
    /// once on a `401`, logging, tracing — under the client's deadline, and the
    /// transport (``WebSocketTransport``) upgrades it; the endpoint's options and attributes
    /// go to the steps, and the client's timeout bounds the handshake. After the upgrade, the call's
    /// deadline no longer applies: the connection lives until it is closed, kept alive by
    /// pings, and reconnects (each time through the same steps) when `configuration` asks.
    ///
    /// - Throws: ``StrataError``: ``StrataError/Kind/unacceptableStatus`` with the response
    ///   and its body when the server refused the upgrade;
    ///   ``StrataError/Kind/webSocket`` (``WebSocketError/unsupported(reason:)``) when the
    ///   client's transport cannot open WebSockets; the stages of any call otherwise.
    /// - Parameters:
    ///   - endpoint: the handshake's request; its parse function is not used (read messages
    ///     as models with `socket.messages.decoding(Model.self)`).
    ///   - socketConfiguration: message sizes, keep-alive, subprotocols, compression,
    ///     reconnection.
    public func webSocket<Response>(
        _ endpoint: Endpoint<Response>,
        configuration socketConfiguration: WebSocketConfiguration = WebSocketConfiguration()
    ) async throws(StrataError) -> WebSocket {
        guard let sockets = transport as? any WebSocketTransport else {
            throw StrataError(
                .webSocket,
                underlying: WebSocketError.unsupported(reason: "\(type(of: transport)) does not open WebSockets"))
        }
        var head: HTTPRequest
        do {
            head = try endpoint.encoded(jsonEncoder: configuration.jsonEncoder).head
        } catch let error as URLRouteError {
            throw StrataError(.invalidURL, underlying: error)
        } catch {
            throw StrataError(.encoding, underlying: error)
        }
        if !socketConfiguration.subprotocols.isEmpty {
            head.headerFields[.secWebSocketProtocol] = socketConfiguration.subprotocols.joined(separator: ", ")
        }
        let connect: @Sendable () async throws(StrataError) -> WebSocketLink = { [head] () async throws(StrataError) in
            try await self.openWebSocket(
                head, over: sockets, configuration: socketConfiguration, options: endpoint.options,
                attributes: endpoint.attributes)
        }
        let socket = WebSocket(
            link: try await connect(), reconnection: socketConfiguration.reconnection,
            budget: socketConfiguration.reconnection.flatMap { reconnectionBudget($0.policy) }, connect: connect)
        try await socket.subscribe()
        return socket
    }

    /// Opens a WebSocket to `request`; see ``webSocket(_:configuration:)-(Endpoint<Response>,_)``.
    public func webSocket<Route: URLRouteProvider>(
        _ request: RequestDescription<Route>,
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) async throws(StrataError) -> WebSocket {
        try await webSocket(Endpoint<Data>(request), configuration: configuration)
    }

    /// One opening handshake through the client's steps: the open connection, or the
    /// error that says why there is none.
    private func openWebSocket(
        _ head: HTTPRequest, over sockets: any WebSocketTransport,
        configuration socketConfiguration: WebSocketConfiguration,
        options: CallValues, attributes: [String: String]
    ) async throws(StrataError) -> WebSocketLink {
        let upgrade = WebSocketUpgrade(sockets: sockets, configuration: socketConfiguration)
        let (response, body) = try await send(
            head, body: nil, options: options, attributes: attributes, through: upgrade)
        guard response.status == .switchingProtocols, let (sent, channel) = upgrade.take() else {
            let errorBody = await body.prefix(configuration.errorBodyLimit + 1)
            throw StrataError(
                .unacceptableStatus, request: head, response: response, body: errorBody,
                bodyLimit: configuration.errorBodyLimit)
        }
        return WebSocketLink(channel: channel, handshake: response, request: sent, configuration: socketConfiguration)
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
