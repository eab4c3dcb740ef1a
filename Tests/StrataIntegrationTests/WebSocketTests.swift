// On Apple platforms these tests are compiled out: their server, hummingbird-websocket,
// needs macOS 14 / iOS 17 / tvOS 17, above Strata's floor, so Strata links it on Linux
// only (Package.swift, Integration.linuxProduct). WebSocketTargetTests.swift runs everywhere.
#if WebSocket && canImport(HummingbirdWebSocket)
    import Crypto
    import Foundation
    import HTTPTypes
    import Hummingbird
    import HummingbirdCore
    import HummingbirdTLS
    import HummingbirdWebSocket
    import Logging
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import NIOSSL
    import NIOWebSocket
    import Strata
    import StrataAsyncHTTPClient
    import StrataServerLifecycle
    import StrataTestCertificates
    import StrataTestSupport
    import StrataTesting
    import StrataURLSession
    import Testing
    import WSCompression
    import WSCore

    /// An in-process WebSocket server on 127.0.0.1 (hummingbird-websocket), with a socket per
    /// path: `/echo` echoes every message, `/fragments` sends one text message in three
    /// frames, `/close` closes with 1001 "restarting", `/big` sends a 2 MiB message in one
    /// frame and `/big-fragments` in 16 KiB frames, `/invalid-utf8` a text frame that is not
    /// UTF-8, `/hold` waits until the client closes, `/policy` closes with 1008, `/flood`
    /// sends 32 MiB in 64 KiB messages (counted in `flooded` as they are written), `/json` sends a JSON message and one that is not,
    /// `/zeros` sends 2 MiB of zeros (tiny when compressed). The server offers
    /// permessage-deflate to clients that ask.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    struct WebSocketServer {
        let baseURL: String
        let handshakes: Locked<[String]>
        let endedHolds: Locked<Int>
        /// The messages `/flood` has written so far.
        let flooded: Locked<Int>

        /// Runs `body` with a server, over TLS with `tls` (`wss`) when given.
        static func with(tls: TLSConfiguration? = nil, _ body: (WebSocketServer) async throws -> Void) async throws {
            let handshakes = Locked<[String]>([])
            let endedHolds = Locked(0)
            let flooded = Locked(0)
            let router = Router()
            var logger = Logger(label: "strata.websocket-test-server")
            logger.logLevel = .critical
            let server = try await InProcessServer.start(
                router: router,
                server: .http1WebSocketUpgrade(
                    configuration: .init(
                        ws: .init(
                            maxFrameSize: 1 << 16, extensions: [.perMessageDeflate(maxDecompressedFrameSize: 1 << 20)]))
                ) { request, _, _ in
                    let path = request.path ?? ""
                    handshakes.withLock { $0.append(path) }
                    return .upgrade([:]) { inbound, outbound, _ in
                        try await serve(path, inbound, outbound, endedHolds: endedHolds, flooded: flooded)
                    }
                },
                serverName: "strata-websocket-test", logger: logger, tlsConfiguration: tls)
            do {
                try await body(
                    WebSocketServer(
                        baseURL: "\(tls == nil ? "ws" : "wss")://127.0.0.1:\(server.port)", handshakes: handshakes,
                        endedHolds: endedHolds, flooded: flooded))
            } catch {
                await server.shutdown()
                throw error
            }
            await server.shutdown()
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
            endedHolds: Locked<Int>, flooded: Locked<Int>
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
            case "/policy":
                try await outbound.close(.policyViolation, reason: "go away")
            case "/flood":
                for _ in 0..<512 {
                    try await outbound.write(.binary(ByteBuffer(repeating: 1, count: 64 << 10)))
                    flooded.withLock { $0 += 1 }
                }
                try await echo(inbound, outbound)
            case "/json":
                try await outbound.write(.text(#"{"user":"ann","text":"hi"}"#))
                try await outbound.write(.text("not json"))
                try await echo(inbound, outbound)
            case "/zeros":
                try await outbound.write(.binary(ByteBuffer(repeating: 0, count: 2 << 20)))
                try await echo(inbound, outbound)
            default:
                try await echo(inbound, outbound)
            }
        }
    }

    /// A WebSocket server on plain SwiftNIO, for refused handshakes: without
    /// `Authorization: Bearer fresh` it answers `401` (hummingbird-websocket answers every
    /// refused upgrade with `400`); with it, it upgrades with the `chat` subprotocol and
    /// echoes text frames without answering pings (`/quiet`). On `/drop-first`, the first
    /// connection waits for the client's first frame, sends "one" and drops without a close
    /// frame. `/masked`, `/reserved-opcode` and `/reserved-bit` first send a frame the
    /// protocol forbids a server (masked, opcode 3, RSV1 without an extension), then echo.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    enum AuthenticatingWebSocketServer {
        enum Outcome: Sendable {
            case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, path: String, dropsAtOnce: Bool)
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
            let open = OpenChannels()
            // Not cancelled: an outcome still buffered when the accept loop is cancelled is
            // freed unfinished, which traps in SwiftNIO. The listener closes instead (the
            // loop drains what is buffered) and closing the connections ends their handlers.
            let serving = Task {
                await withDiscardingTaskGroup { group in
                    try? await server.executeThenClose { connections in
                        for try await outcome in connections {
                            group.addTask { try? await handle(outcome, open: open) }
                        }
                    }
                }
            }
            let failure: (any Error)?
            do {
                try await body("ws://127.0.0.1:\(port)", handshakes)
                failure = nil
            } catch {
                failure = error
            }
            try? await server.channel.close()
            for channel in open.closeAll() { try? await channel.close() }
            await serving.value
            if let failure { throw failure }
        }

        /// The connections being handled, closed at once after ``closeAll()``.
        final class OpenChannels: Sendable {
            private let state = Locked<(channels: [ObjectIdentifier: any Channel], isClosed: Bool)>(([:], false))

            /// Records `channel`, or closes it when the server is stopping.
            func add(_ channel: any Channel) {
                let added = state.withLock { state in
                    if !state.isClosed { state.channels[ObjectIdentifier(channel)] = channel }
                    return !state.isClosed
                }
                if !added { channel.close(promise: nil) }
            }

            /// Marks the server as stopping and returns the channels to close.
            func closeAll() -> [any Channel] {
                state.withLock { state in
                    state.isClosed = true
                    return Array(state.channels.values)
                }
            }
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
                upgradePipelineHandler: { channel, head in
                    let connections = handshakes.withLock { $0.filter { $0.hasPrefix(head.uri + " ") }.count }
                    return channel.eventLoop.makeCompletedFuture {
                        .upgraded(
                            try NIOAsyncChannel(wrappingChannelSynchronously: channel), path: head.uri,
                            dropsAtOnce: head.uri == "/drop-first" && connections == 1)
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

        static func handle(_ outcome: EventLoopFuture<Outcome>, open: OpenChannels) async throws {
            let outcome = try await outcome.get()
            switch outcome {
            case .refused(let http): open.add(http.channel)
            case .upgraded(let socket, _, _): open.add(socket.channel)
            }
            switch outcome {
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
            case .upgraded(let socket, let path, let dropsAtOnce):
                try await socket.executeThenClose { inbound, outbound in
                    if let forbidden = forbiddenFrame(path) { try await outbound.write(forbidden) }
                    if dropsAtOnce {
                        var frames = inbound.makeAsyncIterator()
                        _ = try await frames.next()  // the client's subscription
                        try await outbound.write(
                            WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: "one")))
                        try await socket.channel.close()
                        return
                    }
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

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    extension AuthenticatingWebSocketServer {
        /// The frame a server may not send that `path` sends first, if any.
        static func forbiddenFrame(_ path: String) -> WebSocketFrame? {
            let data = ByteBuffer(string: "hi")
            return switch path {
            case "/masked":
                WebSocketFrame(fin: true, opcode: .text, maskKey: WebSocketMaskingKey([1, 2, 3, 4]), data: data)
            case "/reserved-opcode":
                WebSocketFrame(fin: true, opcode: WebSocketOpcode(encodedWebSocketOpcode: 3)!, data: data)
            case "/reserved-bit": WebSocketFrame(fin: true, rsv1: true, opcode: .text, data: data)
            default: nil
            }
        }
    }

    @Suite(.serialized) struct WebSocketTests {
        static let networker = Networker(transport: AsyncHTTPClientTransport())
        /// A client whose handshakes carry the token `AuthenticatingWebSocketServer` wants.
        static let authenticated = Networker(
            transport: AsyncHTTPClientTransport(), middleware: [HeadersMiddleware([.authorization: "Bearer fresh"])])

        /// Reconnections 10 ms apart, without jitter or budget, at most `limit`.
        static func quickReconnection(limit: Int) -> ReconnectionPolicy {
            ReconnectionPolicy(
                reconnectionTime: .milliseconds(10), jitter: false, maximumReconnections: limit, budget: .unlimited)
        }

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

        /// Frames that come with the `101`, the connection's end right behind them (a server
        /// that greets and closes at once), are all read: the message, then the peer's close
        /// frame. (NIO drops bytes after the `101` when it reads the end in the same turn.)
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func framesThatComeWithTheHandshakeAreRead() async throws {
            let frames: [UInt8] =
                [0x81, 0x05] + Array("hello".utf8) + [0x88, 0x0C, 0x03, 0xE9] + Array("restarting".utf8)
            try await RawReplyServer.with(replying: { head in Self.upgradeAnswer(to: head) + frames }) { server in
                for _ in 0..<20 {
                    let socket = try await Self.networker.webSocket(
                        RequestDescription(route: "ws://127.0.0.1:\(server.baseURL.port ?? 0)/greet"))
                    var messages = socket.messages.makeAsyncIterator()
                    #expect(try await messages.next() == .text("hello"))
                    #expect(try await messages.next() == nil)
                    #expect(socket.closure == WebSocketClosure(code: .goingAway, reason: "restarting", byPeer: true))
                }
            }
        }

        /// The `101` that accepts the upgrade `head` asks for.
        static func upgradeAnswer(to head: String) -> [UInt8] {
            let key =
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
                .map { $0.dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces) } ?? ""
            let accept = Data(Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
                .base64EncodedString()
            return RawReplyServer.http(
                "HTTP/1.1 101 Switching Protocols\nUpgrade: websocket\nConnection: Upgrade\nSec-WebSocket-Accept: \(accept)\n\n"
            )
        }

        /// A socket opened through a recording transport leaves its handshake in the HAR:
        /// the upgrade request and its `101`, and a refused one with its status and body.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func aRecordingTransportRecordsTheHandshakes() async throws {
            try await AuthenticatingWebSocketServer.with { baseURL, _ in
                let recorder = HARRecorder()
                let transport = HARRecordingTransport(wrapping: AsyncHTTPClientTransport(), into: recorder)
                let authenticated = Networker(
                    transport: transport, middleware: [HeadersMiddleware([.authorization: "Bearer fresh"])])
                let socket = try await authenticated.webSocket(RequestDescription(route: baseURL + "/echo"))
                try await socket.send(text: "hi")
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("hi"))
                await socket.close()
                let refused = await #expect(throws: StrataError.self) {
                    try await Networker(transport: transport).webSocket(RequestDescription(route: baseURL + "/echo"))
                }
                #expect(refused?.kind == .unacceptableStatus)
                let entries = recorder.har.log.entries
                #expect(entries.map(\.request.method) == ["GET", "GET"])
                #expect(entries.map(\.request.url) == [baseURL + "/echo", baseURL + "/echo"])
                #expect(entries.map(\.response.status) == [101, 401])
                #expect(entries.last?.response.content.text == "denied")
            }
        }

        /// A frame the protocol forbids a server (masked, a reserved opcode, a reserved bit
        /// without the extension that defines it) ends the connection with 1002, said by this
        /// side, and the reader is told so.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test(arguments: ["/masked", "/reserved-opcode", "/reserved-bit"])
        func aFrameAServerMayNotSendClosesWith1002(_ path: String) async throws {
            try await AuthenticatingWebSocketServer.with { baseURL, _ in
                let socket = try await Self.authenticated.webSocket(RequestDescription(route: baseURL + path))
                var messages = socket.messages.makeAsyncIterator()
                let error = await #expect(throws: StrataError.self) { try await messages.next() }
                #expect(error?.kind == .webSocket)
                guard case .closed(let closure)? = error?.webSocketError else {
                    Issue.record("not a close: \(String(describing: error))")
                    return
                }
                #expect(closure.code == .protocolError)
                #expect(closure.byPeer == false)
                #expect(socket.closure?.code == .protocolError)
                #expect(socket.closure?.byPeer == false)
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

        /// A peer that stops answering pings ends the connection once the pong is overdue
        /// (the bound itself, ping interval + pong timeout, is `WebSocketKeepAliveTests`').
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func aPeerThatStopsAnsweringPingsEndsTheConnection() async throws {
            try await AuthenticatingWebSocketServer.with { baseURL, _ in
                var configuration = WebSocketConfiguration()
                configuration.pingInterval = .milliseconds(100)
                configuration.pongTimeout = .milliseconds(150)
                let socket = try await Self.authenticated.webSocket(
                    RequestDescription(route: baseURL + "/quiet"), configuration: configuration)
                var messages = socket.messages.makeAsyncIterator()
                let error = await #expect(throws: StrataError.self) { try await messages.next() }
                #expect(error?.kind == .webSocket)
                #expect(error?.webSocketError == .unresponsivePeer(pongTimeout: .milliseconds(150)))
                #expect(socket.closure?.code == .abnormalClosure)
            }
        }

        /// A peer that answers pings keeps the connection: pings flow, messages still arrive.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func aPeerThatAnswersPingsKeepsTheConnection() async throws {
            try await WebSocketServer.with { server in
                var configuration = WebSocketConfiguration()
                configuration.pingInterval = .milliseconds(20)
                configuration.pongTimeout = .seconds(5)
                let socket = try await Self.networker.webSocket(
                    RequestDescription(route: server.baseURL + "/echo"), configuration: configuration)
                try await Task.sleep(for: .milliseconds(300))
                try await socket.send(text: "still here")
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("still here"))
                #expect(socket.closure == nil)
                await socket.close()
            }
        }

        /// No message either way for the idle timeout: closed with 1001 by this side, and
        /// the reader is told why.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func anIdleConnectionIsClosed() async throws {
            try await WebSocketServer.with { server in
                var configuration = WebSocketConfiguration()
                configuration.idleTimeout = .milliseconds(200)
                let socket = try await Self.networker.webSocket(
                    RequestDescription(route: server.baseURL + "/hold"), configuration: configuration)
                var messages = socket.messages.makeAsyncIterator()
                let error = await #expect(throws: StrataError.self) { try await messages.next() }
                #expect(error?.kind == .webSocket)
                #expect(error?.webSocketError == .idle(timeout: .milliseconds(200)))
                #expect(socket.closure?.code == .goingAway)
                #expect(socket.closure?.byPeer == false)
            }
        }

        /// After a drop, the reader reconnects through the client's steps, subscribes again
        /// and reads on: exactly two handshakes, the messages of both connections in order.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func aDroppedConnectionReconnectsAndSubscribesAgain() async throws {
            try await AuthenticatingWebSocketServer.with { baseURL, handshakes in
                var configuration = WebSocketConfiguration()
                configuration.reconnection = WebSocketReconnection(
                    policy: Self.quickReconnection(limit: 3)
                ) { socket in
                    try await socket.send(text: "subscribe #\(socket.connections)")
                }
                let socket = try await Self.authenticated.webSocket(
                    RequestDescription(route: baseURL + "/drop-first"), configuration: configuration)
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("one"))
                #expect(try await messages.next() == .text("subscribe #2"))
                try await socket.send(text: "after")
                #expect(try await messages.next() == .text("after"))
                #expect(socket.connections == 2)
                #expect(handshakes.withLock { $0 } == ["/drop-first Bearer fresh", "/drop-first Bearer fresh"])
                await socket.close()
                #expect(try await messages.next() == nil)
                #expect(socket.connections == 2)
            }
        }

        /// A peer that closes with a code that is not final (1001) is reconnected to until
        /// the policy's limit; the error is the last close.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func reconnectionStopsAtThePolicysLimit() async throws {
            try await WebSocketServer.with { server in
                var configuration = WebSocketConfiguration()
                configuration.reconnection = WebSocketReconnection(policy: Self.quickReconnection(limit: 2))
                let socket = try await Self.networker.webSocket(
                    RequestDescription(route: server.baseURL + "/close"), configuration: configuration)
                var messages = socket.messages.makeAsyncIterator()
                let error = await #expect(throws: StrataError.self) { try await messages.next() }
                #expect(
                    error?.webSocketError
                        == .closed(WebSocketClosure(code: .goingAway, reason: "restarting", byPeer: true)),
                    "\(String(describing: error))")
                #expect(socket.connections == 3)
                #expect(server.handshakes.withLock { $0 } == ["/close", "/close", "/close"])
            }
        }

        /// 1008 means "don't come back": no reconnection, the messages end.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func aFinalCloseCodeDoesNotReconnect() async throws {
            try await WebSocketServer.with { server in
                var configuration = WebSocketConfiguration()
                configuration.reconnection = WebSocketReconnection(policy: Self.quickReconnection(limit: 3))
                let socket = try await Self.networker.webSocket(
                    RequestDescription(route: server.baseURL + "/policy"), configuration: configuration)
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == nil)
                #expect(socket.closure == WebSocketClosure(code: .policyViolation, reason: "go away", byPeer: true))
                #expect(socket.connections == 1)
                #expect(server.handshakes.withLock { $0 } == ["/policy"])
            }
        }

        /// Messages decode into models through the model layers; one that is not JSON ends
        /// the decoded sequence with a decoding error that carries it.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func messagesDecodeIntoModels() async throws {
            struct Line: Decodable, Equatable {
                let user: String
                let text: String
            }
            try await WebSocketServer.with { server in
                let socket = try await Self.networker.webSocket(RequestDescription(route: server.baseURL + "/json"))
                var lines = socket.messages.decoding(Line.self).makeAsyncIterator()
                #expect(try await lines.next() == Line(user: "ann", text: "hi"))
                let error = await #expect(throws: StrataError.self) { try await lines.next() }
                #expect(error?.kind == .decoding)
                #expect(error?.bodySnippet == "not json")
                #expect(try await lines.next() == nil)
                await socket.close()
            }
        }

        /// With compression offered and accepted, messages go compressed both ways and
        /// arrive exact; an inflated message over the limit still ends with 1009.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func compressionIsNegotiatedAndBoundedByTheMessageSize() async throws {
            try await WebSocketServer.with { server in
                var configuration = WebSocketConfiguration()
                configuration.usesCompression = true
                let socket = try await Self.networker.webSocket(
                    RequestDescription(route: server.baseURL + "/echo"), configuration: configuration)
                #expect(socket.handshake.headerFields[.secWebSocketExtensions]?.hasPrefix("permessage-deflate") == true)
                let text = String(repeating: "strata ", count: 5_000)
                try await socket.send(text: text)
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text(text))
                await socket.close()

                let zeros = try await Self.networker.webSocket(
                    RequestDescription(route: server.baseURL + "/zeros"), configuration: configuration)
                var bomb = zeros.messages.makeAsyncIterator()
                let error = await #expect(throws: StrataError.self) { try await bomb.next() }
                #expect(error?.webSocketError == .messageTooLarge(limit: 1 << 20))
                #expect(zeros.closure?.code == .messageTooBig)
            }
        }

        /// 10,000 messages each way at full speed, every echo exact and in order, with the
        /// process's resident memory growing less than 32 MB.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func tenThousandMessagesEachWayInBoundedMemory() async throws {
            try await WebSocketServer.with { server in
                let socket = try await Self.networker.webSocket(RequestDescription(route: server.baseURL + "/echo"))
                let count = 10_000
                let (received, growth) = try await PeakRSSSampler.measure {
                    let writer = Task {
                        for number in 0..<count { try await socket.send(text: "message \(number)") }
                    }
                    var received = 0
                    var messages = socket.messages.makeAsyncIterator()
                    while received < count, let message = try await messages.next() {
                        guard message == .text("message \(received)") else { break }
                        received += 1
                    }
                    try await writer.value
                    return received
                }
                #expect(received == count)
                ResidentMemory.expect(growth: growth, below: 32 << 20, "grew \(growth >> 20) MiB")
                await socket.close()
            }
        }

        /// A reader that does not read while the server floods 32 MiB does not grow
        /// memory: the socket stops reading, the server waits; then all of it arrives.
        ///
        /// What waits is counted where it is written: after half a second (time enough for
        /// the whole flood at loopback speed), the server has written less than half of it,
        /// so at most that much is buffered anywhere between the two (its buffers, the
        /// kernel's, this socket's). The process's RSS would count every test running beside
        /// this one too.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func aSlowReaderDoesNotGrowMemory() async throws {
            try await WebSocketServer.with { server in
                let socket = try await Self.networker.webSocket(RequestDescription(route: server.baseURL + "/flood"))
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .binary(Data(repeating: 1, count: 64 << 10)))
                try await Task.sleep(for: .milliseconds(500))
                let written = server.flooded.withLock { $0 }
                #expect(written < 256, "the server wrote \(written) of 512 messages while the reader waited")
                var bytes = 64 << 10
                for _ in 1..<512 {
                    guard case .binary(let data)? = try await messages.next() else { break }
                    bytes += data.count
                }
                #expect(bytes == 32 << 20)
                await socket.close()
            }
        }

        /// `wss` trusts as the transport's trust settings say: a socket to a server whose CA
        /// the transport was told to trust works; the system's roots refuse it as `.tls`.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test func wssTrustsAsTheTransportsTrustSettingsSay() async throws {
            let authority = try TestCertificateAuthority(commonName: "Strata WebSocket CA")
            let leaf = try authority.issue()
            try await WebSocketServer.with(tls: try leaf.serverTLSConfiguration()) { server in
                #expect(server.baseURL.hasPrefix("wss://"))
                let trusting = try AsyncHTTPClientTransport(
                    trust: ServerTrust(default: TrustPolicy(roots: .only([authority.root.certificate]))))
                let socket = try await Networker(transport: trusting).webSocket(
                    RequestDescription(route: server.baseURL + "/echo"))
                try await socket.send(text: "over TLS")
                var messages = socket.messages.makeAsyncIterator()
                #expect(try await messages.next() == .text("over TLS"))
                await socket.close()
                let error = await #expect(throws: StrataError.self) {
                    try await Self.networker.webSocket(RequestDescription(route: server.baseURL + "/echo"))
                }
                #expect(error?.kind == .transport)
                #expect(error?.transportError?.kind == .tls)
                try await trusting.shutdown()
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
        /// it refuses with a typed error that says so. Apple's `URLSession` opens them.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        @Test(.enabled(if: Platform.isLinuxFoundation, "Linux only: Apple's URLSession opens WebSockets"))
        func urlSessionOnLinuxRefusesWithATypedError() async throws {
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
        }
    }
#endif
