#if WebSocket
    import Foundation
    import HTTPTypes
    import Logging
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import NIOSSL
    import NIOWebSocket
    import Strata

    /// WebSockets over SwiftNIO, on the client's event loops: the opening handshake is an
    /// HTTP/1.1 upgrade on a connection of its own (`wss` trusts as the transport's `https`
    /// does), and the protocol after it is swift-websocket's (`NIOWebSocketChannel`).
    extension AsyncHTTPClientTransport: WebSocketTransport {
        /// Sends `request` as the opening handshake within `deadline`: the open channel for a
        /// `101`, or the response and its body (up to 64 KiB) for any other status.
        public func openWebSocket(
            _ request: HTTPRequest,
            configuration: WebSocketConfiguration,
            deadline: ContinuousClock.Instant?
        ) async throws -> WebSocketHandshake {
            if let proxy = proxies?.settings.server(for: request) {
                throw ProxyConfigurationError(
                    .webSocket, transport: ProxyClients.transportName,
                    reason: "WebSockets open on a connection of their own, which does not go through "
                        + "\(proxy.endpoint) yet; add the host to ProxySettings.bypass, or use URLSessionTransport "
                        + "on Apple platforms")
            }
            let target = try WebSocketTarget(request)
            let tls =
                target.usesTLS
                ? try NIOSSLContext(
                    configuration: trust?.configuration(forAuthority: request.authority ?? "")
                        ?? .makeClientConfiguration())
                : nil
            let connection = WebSocketConnection(
                target: target, request: request, tls: tls, configuration: configuration)
            let outcome = await Deadline.run(until: deadline) { [client] in
                try await connection.open(on: client.eventLoopGroup)
            }
            if outcome.timedOut { connection.abandon() }
            switch outcome.result {
            case .success(.upgraded(let channel, let head, let frames)):
                let socket = try await NIOWebSocketChannel.start(
                    channel, head: head, frames: frames, configuration: configuration,
                    logger: Logger(label: "strata.websocket"))
                return .upgraded(head, socket)
            case .success(.refused(let head, let body)):
                return .refused(head, MessageBody(body))
            case .failure(let error):
                if outcome.timedOut { throw TransportError(.timedOut) }
                // A refused TLS handshake is `.tls` with its reason, as for any request.
                throw TransportErrorClassifier.classify(error, deadline: deadline)
            }
        }
    }

    /// One opening handshake: the connection, the upgrade request, and the server's answer.
    final class WebSocketConnection: Sendable {
        enum Answer: Sendable {
            case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, HTTPResponse, FrameRelay)
            case refused(HTTPResponse, Data)
        }

        /// What the pipeline hands over once the server answered.
        private enum Upgrade: Sendable {
            case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, HTTPResponseHead, FrameRelay)
            case refused(NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>)
        }

        /// The longest refused answer's body kept.
        static let refusedBodyLimit = 64 * 1024

        let target: WebSocketTarget
        let request: HTTPRequest
        let tls: NIOSSLContext?
        let configuration: WebSocketConfiguration
        /// The connection, once made, so that an abandoned handshake closes it.
        private let channel = Locked<(any Channel)?>(nil)

        init(target: WebSocketTarget, request: HTTPRequest, tls: NIOSSLContext?, configuration: WebSocketConfiguration)
        {
            self.target = target
            self.request = request
            self.tls = tls
            self.configuration = configuration
        }

        /// Closes the connection of a handshake nobody waits for any more.
        func abandon() {
            channel.withLock { $0 }?.close(promise: nil)
        }

        /// Connects, sends the upgrade request and reads the answer.
        func open(on group: any EventLoopGroup) async throws -> Answer {
            let upgrade: EventLoopFuture<Upgrade>
            do {
                // Half-closure lets `InputEndHold` hold the end of the input back during the upgrade.
                // A borrowed client's Network.framework group cannot make SwiftNIO sockets: the
                // transport's own group does.
                let bootstrap =
                    ClientBootstrap(validatingGroup: group)
                    ?? ClientBootstrap(group: AsyncHTTPClientTransport.eventLoopGroup)
                upgrade = try await bootstrap.channelOption(.allowRemoteHalfClosure, value: true)
                    .connect(host: target.host, port: target.port) { channel in
                        channel.eventLoop.makeCompletedFuture { try self.configure(channel) }
                    }
            } catch {
                throw TransportError(.connectionRefused, underlying: error)
            }
            switch try await upgrade.get() {
            case .upgraded(let channel, let head, let frames):
                return .upgraded(channel, try HTTPResponse(head), frames)
            case .refused(let channel):
                return try await Self.read(channel)
            }
        }

        /// Sets up TLS, the upgrade request and its two outcomes on a new connection.
        private func configure(_ channel: any Channel) throws -> EventLoopFuture<Upgrade> {
            self.channel.withLock { $0 = channel }
            if let tls {
                try channel.pipeline.syncOperations.addHandler(
                    NIOSSLClientHandler(context: tls, serverHostname: target.host.isIPAddress ? nil : target.host),
                    position: .first)
            }
            let hold = InputEndHold()
            try channel.pipeline.syncOperations.addHandler(hold)
            var headers = HTTPHeaders()
            headers.add(name: "Host", value: target.hostField)
            for field in request.headerFields where field.name.canonicalName != "host" {
                headers.add(name: field.name.rawName, value: field.value)
            }
            if configuration.usesCompression {
                headers.add(
                    name: "Sec-WebSocket-Extensions",
                    value: NIOWebSocketChannel.compression(configuration).clientRequestHeader())
            }
            // Without NIO's automatic error handling, a frame its decoder refuses reaches the
            // reader, which closes with the code that says why (1009 for one too large).
            let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(
                maxFrameSize: configuration.maxMessageSize, enableAutomaticErrorHandling: false
            ) { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    let frames = FrameRelay()
                    try channel.pipeline.syncOperations.addHandler(FrameWatch(relay: frames))
                    return .upgraded(try NIOAsyncChannel(wrappingChannelSynchronously: channel), head, frames)
                }
            }
            let upgradeConfiguration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
                upgradeRequestHead: HTTPRequestHead(
                    version: .http1_1, method: .GET, uri: target.requestTarget, headers: headers),
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        .refused(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                    }
                })
            var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgradeConfiguration)
            pipeline.leftOverBytesStrategy = .forwardBytes
            let upgrade = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                configuration: pipeline)
            // The answer is handed over before the bytes after it are passed on: the end of
            // the input follows a turn later.
            upgrade.assumeIsolated().whenComplete { _ in
                channel.eventLoop.assumeIsolated().execute { hold.release() }
            }
            return upgrade
        }

        /// The refused answer: its head and up to ``refusedBodyLimit`` bytes of its body;
        /// the connection is closed.
        private static func read(
            _ channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        ) async throws -> Answer {
            try await channel.executeThenClose { inbound, _ in
                var head: HTTPResponseHead?
                var body = Data()
                reading: for try await part in inbound {
                    switch part {
                    case .head(let received): head = received
                    case .body(let chunk):
                        body.append(contentsOf: chunk.readableBytesView.prefix(refusedBodyLimit - body.count))
                    case .end: break reading
                    }
                }
                guard let head else {
                    throw TransportError(.malformedResponse, detail: "no response to the WebSocket handshake")
                }
                return .refused(try HTTPResponse(head), body)
            }
        }
    }

    extension HTTPResponse {
        /// The swift-http-types head of a NIO response head.
        init(_ head: HTTPResponseHead) throws {
            try self.init(code: Int(head.status.code), reasonPhrase: head.status.reasonPhrase, headers: head.headers)
        }
    }

    extension String {
        /// Whether this is an IPv4 or IPv6 address (no SNI for those).
        fileprivate var isIPAddress: Bool {
            (try? SocketAddress(ipAddress: self, port: 0)) != nil
        }
    }
#endif
