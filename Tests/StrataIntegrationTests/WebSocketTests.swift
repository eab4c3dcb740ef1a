#if WebSocket
    import Foundation
    import HTTPTypes
    import Hummingbird
    import HummingbirdWebSocket
    import Logging
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import NIOWebSocket
    import Strata
    import StrataAsyncHTTPClient
    import StrataURLSession
    import Testing
    import WSCore

    /// An in-process WebSocket server on 127.0.0.1 (hummingbird-websocket), with a socket per
    /// path: `/echo` echoes every message, `/fragments` sends one text message in three
    /// frames, `/close` closes with 1001 "restarting", `/big` sends a 2 MiB message in one
    /// frame and `/big-fragments` in 16 KiB frames, `/invalid-utf8` a text frame that is not
    /// UTF-8, `/hold` waits until the client closes, `/secure` upgrades only with
    /// `Authorization: Bearer fresh` (a plain `401` otherwise), answering with the offered
    /// `chat` subprotocol.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    struct WebSocketServer {
        let baseURL: String
        let handshakes: Locked<[String]>
        let endedHolds: Locked<Int>

        static func with(_ body: (WebSocketServer) async throws -> Void) async throws {
            let handshakes = Locked<[String]>([])
            let endedHolds = Locked(0)
            let router = Router()
            var logger = Logger(label: "strata.websocket-test-server")
            logger.logLevel = .critical
            let (ports, port) = AsyncStream.makeStream(of: Int.self)
            let app = Application(
                router: router,
                server: .http1WebSocketUpgrade { request, _, _ in
                    let path = request.path ?? ""
                    handshakes.withLock { $0.append(path) }
                    return .upgrade([:]) { inbound, outbound, _ in
                        try await serve(path, inbound, outbound, endedHolds: endedHolds)
                    }
                },
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in
                    port.yield(channel.localAddress?.port ?? 0)
                    port.finish()
                },
                logger: logger)
            let server = Task { try await app.run() }
            defer { server.cancel() }
            var iterator = ports.makeAsyncIterator()
            let bound = try #require(await iterator.next())
            try await body(
                WebSocketServer(baseURL: "ws://127.0.0.1:\(bound)", handshakes: handshakes, endedHolds: endedHolds))
        }

        static func echo(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter) async throws {
            for try await message in inbound.messages(maxSize: 4 << 20) {
                switch message {
                case .text(let text): try await outbound.write(.text(text))
                case .binary(let bytes): try await outbound.write(.binary(bytes))
                }
            }
        }

        static func serve(
            _ path: String, _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter,
            endedHolds: Locked<Int>
        ) async throws {
            switch path {
            case "/fragments":
                try await outbound.withTextMessageWriter { writer in
                    try await writer("one ")
                    try await writer("two ")
                    try await writer("three")
                }
                try await echo(inbound, outbound)
            case "/close":
                try await outbound.close(.goingAway, reason: "restarting")
            case "/big":
                try await outbound.write(.binary(ByteBuffer(repeating: 7, count: 2 << 20)))
                try await echo(inbound, outbound)
            case "/big-fragments":
                try await outbound.withBinaryMessageWriter { writer in
                    for _ in 0..<128 { try await writer(ByteBuffer(repeating: 7, count: 16 << 10)) }
                }
                try await echo(inbound, outbound)
            case "/invalid-utf8":
                try await outbound.write(
                    .custom(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: [0xC3, 0x28]))))
                try await echo(inbound, outbound)
            case "/hold":
                for try await _ in inbound {}
                endedHolds.withLock { $0 += 1 }
            default:
                try await echo(inbound, outbound)
            }
        }
    }

    /// A WebSocket server on plain SwiftNIO, for refused handshakes: without
    /// `Authorization: Bearer fresh` it answers `401` (hummingbird-websocket answers every
    /// refused upgrade with `400`); with it, it upgrades with the `chat` subprotocol and
    /// echoes text frames.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    enum AuthenticatingWebSocketServer {
        enum Outcome: Sendable {
            case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
            case refused(NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>)
        }

        static func with(_ body: (_ baseURL: String, _ handshakes: Locked<[String]>) async throws -> Void)
            async throws
        {
            let handshakes = Locked<[String]>([])
            let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: "127.0.0.1", port: 0) { channel in
                    channel.eventLoop.makeCompletedFuture { try configure(channel, handshakes: handshakes) }
                }
            let port = try #require(server.channel.localAddress?.port)
            let serving = Task {
                try await withThrowingDiscardingTaskGroup { group in
                    try await server.executeThenClose { connections in
                        for try await outcome in connections {
                            group.addTask { try? await handle(outcome) }
                        }
                    }
                }
            }
            defer { serving.cancel() }
            try await body("ws://127.0.0.1:\(port)", handshakes)
            try? await server.channel.close()
        }

        static func configure(_ channel: any Channel, handshakes: Locked<[String]>) throws
            -> EventLoopFuture<Outcome>
        {
            let upgrader = NIOTypedWebSocketServerUpgrader<Outcome>(
                shouldUpgrade: { channel, head in
                    let authorization = head.headers["Authorization"].first ?? "none"
                    handshakes.withLock { $0.append("\(head.uri) \(authorization)") }
                    let accepted: HTTPHeaders? =
                        authorization == "Bearer fresh" ? HTTPHeaders([("Sec-WebSocket-Protocol", "chat")]) : nil
                    return channel.eventLoop.makeSucceededFuture(accepted)
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        .upgraded(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                    }
                })
            let upgrade = NIOTypedHTTPServerUpgradeConfiguration<Outcome>(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        .refused(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                    }
                })
            return try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                configuration: .init(upgradeConfiguration: upgrade))
        }

        static func handle(_ outcome: EventLoopFuture<Outcome>) async throws {
            switch try await outcome.get() {
            case .refused(let http):
                try await http.executeThenClose { inbound, outbound in
                    for try await part in inbound {
                        guard case .end = part else { continue }
                        let head = HTTPResponseHead(
                            version: .http1_1, status: .unauthorized,
                            headers: ["Content-Length": "6", "Connection": "close"])
                        try await outbound.write(.head(head))
                        try await outbound.write(.body(.byteBuffer(ByteBuffer(string: "denied"))))
                        try await outbound.write(.end(nil))
                        return
                    }
                }
            case .upgraded(let socket):
                try await socket.executeThenClose { inbound, outbound in
                    for try await frame in inbound {
                        switch frame.opcode {
                        case .text:
                            try await outbound.write(WebSocketFrame(fin: true, opcode: .text, data: frame.unmaskedData))
                        case .connectionClose:
                            try await outbound.write(
                                WebSocketFrame(fin: true, opcode: .connectionClose, data: frame.unmaskedData))
                            return
                        default: continue
                        }
                    }
                }
            }
        }
    }

    @Suite(.serialized) struct WebSocketTests {
        static let networker = Networker(transport: AsyncHTTPClientTransport())

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func messagesGoBothWaysWithExactContents() async throws {
            try await WebSocketServer.with { server in
                let socket = try await Self.networker.webSocket(RequestDescription(route: server.baseURL + "/echo"))
                #expect(socket.handshake.status == .switchingProtocols)
                #expect(socket.subprotocol == nil)
                try await socket.send(text: "héllo")
                try await socket.send(Data([0, 1, 2, 255]))
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("héllo"))
                #expect(try await messages.next() == .binary(Data([0, 1, 2, 255])))
                await socket.close(code: .normalClosure, reason: "done")
                #expect(socket.closure == WebSocketClosure(code: .normalClosure, reason: "done", byPeer: false))
                #expect(try await messages.next() == nil)
            }
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func aFragmentedMessageIsReassembled() async throws {
            try await WebSocketServer.with { server in
                let socket = try await Self.networker.webSocket(
                    RequestDescription(route: server.baseURL + "/fragments"))
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("one two three"))
                await socket.close()
            }
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func thePeersCloseCodeAndReasonAreSurfaced() async throws {
            try await WebSocketServer.with { server in
                let socket = try await Self.networker.webSocket(RequestDescription(route: server.baseURL + "/close"))
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == nil)
                #expect(socket.closure == WebSocketClosure(code: .goingAway, reason: "restarting", byPeer: true))
                let error = await #expect(throws: StrataError.self) { try await socket.send(text: "late") }
                #expect(error?.kind == .webSocket)
                #expect(
                    error?.webSocketError
                        == .closed(WebSocketClosure(code: .goingAway, reason: "restarting", byPeer: true)))
            }
        }

        /// A message over the limit ends the connection with 1009, in one frame (NIO's
        /// decoder refuses it) or in many (the reassembly does).
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test(arguments: ["/big", "/big-fragments"])
        func aMessageOverTheLimitClosesWith1009(_ path: String) async throws {
            try await WebSocketServer.with { server in
                let socket = try await Self.networker.webSocket(RequestDescription(route: server.baseURL + path))
                var messages = socket.messages.makeAsyncIterator()
                let error = await #expect(throws: StrataError.self) { try await messages.next() }
                #expect(error?.kind == .webSocket)
                #expect(error?.webSocketError == .messageTooLarge(limit: 1 << 20))
                #expect(socket.closure?.code == .messageTooBig)
                #expect(socket.closure?.byPeer == false)
            }
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func invalidUTF8ClosesWith1007() async throws {
            try await WebSocketServer.with { server in
                let socket = try await Self.networker.webSocket(
                    RequestDescription(route: server.baseURL + "/invalid-utf8"))
                var messages = socket.messages.makeAsyncIterator()
                let error = await #expect(throws: StrataError.self) { try await messages.next() }
                #expect(
                    error?.webSocketError
                        == .closed(WebSocketClosure(code: .invalidPayload, reason: "invalid UTF-8", byPeer: false)))
                #expect(socket.closure?.code == .invalidPayload)
            }
        }

        /// The handshake is a call of the client: a refused one (401) refreshes the token once
        /// and is sent again, through the client's steps.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func aRefusedHandshakeRefreshesTheTokenOnce() async throws {
            try await AuthenticatingWebSocketServer.with { baseURL, handshakes in
                let refreshes = Locked(0)
                let provider = BearerTokenProvider(BearerToken("stale")) { _ in
                    refreshes.withLock { $0 += 1 }
                    return BearerToken("fresh")
                }
                let networker = Networker(
                    transport: AsyncHTTPClientTransport(), middleware: [AuthenticationMiddleware(provider)])
                var configuration = WebSocketConfiguration()
                configuration.subprotocols = ["chat"]
                let socket = try await networker.webSocket(
                    RequestDescription(route: baseURL + "/secure"), configuration: configuration)
                #expect(refreshes.withLock { $0 } == 1)
                #expect(handshakes.withLock { $0 } == ["/secure Bearer stale", "/secure Bearer fresh"])
                #expect(socket.subprotocol == "chat")
                #expect(socket.request.headerFields[.authorization] == "Bearer fresh")
                try await socket.send(text: "in")
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("in"))
                await socket.close()
            }
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func aHandshakeTheServerRefusesIsAStatusFailureWithItsBody() async throws {
            try await AuthenticatingWebSocketServer.with { baseURL, _ in
                let error = await #expect(throws: StrataError.self) {
                    try await Self.networker.webSocket(RequestDescription(route: baseURL + "/secure"))
                }
                #expect(error?.kind == .unacceptableStatus)
                #expect(error?.status == .unauthorized)
                #expect(error?.bodySnippet == "denied")
            }
        }

        /// Cancelling the task that reads closes the socket: the server's handler sees its end.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func cancellingTheReaderClosesTheSocket() async throws {
            try await WebSocketServer.with { server in
                let socket = try await Self.networker.webSocket(RequestDescription(route: server.baseURL + "/hold"))
                let reader = Task { () -> (any Error)? in
                    do {
                        for try await _ in socket.messages {}
                        return nil
                    } catch {
                        return error
                    }
                }
                try await Task.sleep(for: .milliseconds(100))
                reader.cancel()
                let error = await reader.value
                #expect(error.map { StrataError.isCancellation($0) } == true)
                for _ in 0..<100 where server.endedHolds.withLock({ $0 }) == 0 {
                    try await Task.sleep(for: .milliseconds(20))
                }
                #expect(server.endedHolds.withLock { $0 } == 1)
            }
        }

        /// A peer that stops answering pings ends the connection within the ping interval
        /// and its wait for the pong: a transport failure, the connection lost.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func aPeerThatStopsAnsweringPingsEndsTheConnection() async throws {
            try await AuthenticatingWebSocketServer.with { baseURL, _ in
                let networker = Networker(
                    transport: AsyncHTTPClientTransport(),
                    middleware: [HeadersMiddleware([.authorization: "Bearer fresh"])])
                var configuration = WebSocketConfiguration()
                configuration.pingInterval = .milliseconds(200)
                let socket = try await networker.webSocket(
                    RequestDescription(route: baseURL + "/quiet"), configuration: configuration)
                var messages = socket.messages.makeAsyncIterator()
                let error = await #expect(throws: StrataError.self) { try await messages.next() }
                #expect(error?.kind == .transport)
                #expect(error?.transportError?.kind == .connectionLost)
                #expect(socket.closure?.code == .abnormalClosure)
            }
        }

        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func aMalformedTargetIsATypedError() async throws {
            let error = await #expect(throws: StrataError.self) {
                try await Self.networker.webSocket(RequestDescription(route: "ftp://127.0.0.1:1/x"))
            }
            #expect(error?.kind == .transport)
            #expect(error?.transportError?.kind == .invalidRequest)
        }

        /// URLSession on Linux cannot open WebSockets (this system's libcurl has no support):
        /// it refuses with a typed error that says so.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func urlSessionOnLinuxRefusesWithATypedError() async throws {
            #if canImport(FoundationNetworking)
                let networker = Networker(transport: URLSessionTransport())
                let error = await #expect(throws: StrataError.self) {
                    try await networker.webSocket(RequestDescription(route: "ws://127.0.0.1:1/echo"))
                }
                #expect(error?.kind == .webSocket)
                guard case .unsupported(let reason)? = error?.webSocketError else {
                    Issue.record("not unsupported: \(String(describing: error))")
                    return
                }
                #expect(reason.contains("libcurl"))
            #endif
        }
    }
#endif
