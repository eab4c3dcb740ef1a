import Foundation
import HTTPTypes
import Strata
import StrataTesting
import Testing

private let base = "ws://chat.example.com"

/// Opens a socket to `path` through a client over `mock`. Unless `configuration` says
/// otherwise, the socket closes after a second without a message, so that a test whose
/// message never comes fails instead of hanging.
private func open(
    _ mock: MockTransport,
    _ path: String,
    configuration: WebSocketConfiguration = WebSocketConfiguration(),
    middleware: [any Middleware] = []
) async throws -> WebSocket {
    var configuration = configuration
    configuration.idleTimeout = configuration.idleTimeout ?? .seconds(30)
    let networker = Networker(transport: mock, middleware: middleware)
    return try await networker.webSocket(RequestDescription(route: base + path), configuration: configuration)
}

/// The error a failed `open` threw.
private func refusal(_ mock: MockTransport, _ path: String) async -> StrataError? {
    await #expect(throws: StrataError.self) { try await open(mock, path) }
}

/// Waits (at most a second) until `condition` holds.
private func eventually(_ condition: () -> Bool) async throws {
    for _ in 0..<100 where !condition() {
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// The socket's next message.
private func firstMessage(_ socket: WebSocket) async throws -> WebSocketMessage? {
    var messages = socket.messages.makeAsyncIterator()
    return try await messages.next()
}

/// Stubs `path` with a peer that waits a minute, and returns whether its script ended.
private func holdingPeer(_ mock: MockTransport, _ path: String) -> Locked<Bool> {
    let ended = Locked(false)
    mock.webSocket(path) { _ in
        defer { ended.withLock { $0 = true } }
        try await Task.sleep(for: .seconds(60))
    }
    return ended
}

/// Reconnects 10 ms after a drop, without jitter or budget.
private func reconnecting(onConnect: (@Sendable (WebSocket) async throws -> Void)? = nil) -> WebSocketConfiguration {
    var configuration = WebSocketConfiguration()
    configuration.reconnection = WebSocketReconnection(
        policy: ReconnectionPolicy(reconnectionTime: .milliseconds(10), jitter: false, budget: .unlimited),
        onConnect: onConnect)
    return configuration
}

private struct Price: Decodable, Sendable, Equatable {
    let symbol: String
    let price: Double
}

private struct Boom: Error {}

@Suite struct MockWebSocketTests {
    // MARK: Messages and closes

    @Test func anEchoPeerSendsBackTextAndBinaryAndSeesTheClientsClose() async throws {
        let mock = MockTransport()
        let seen = Locked<WebSocketClosure?>(nil)
        mock.webSocket("/echo") { peer in
            for await message in peer.messages { try await peer.send(message) }
            seen.withLock { $0 = peer.closure }
        }
        let socket = try await open(mock, "/echo")
        #expect(socket.handshake.status == .switchingProtocols)
        #expect(socket.handshake.headerFields == [.upgrade: "websocket", .connection: "Upgrade"])
        let sent: [WebSocketMessage] = [.text("ünïcode ✓"), .binary(Data([255, 0, 128])), .text("")]
        for message in sent { try await socket.send(message) }
        var messages = socket.messages.makeAsyncIterator()
        var echoed: [WebSocketMessage] = []
        for _ in sent { echoed.append(try #require(try await messages.next())) }
        #expect(echoed == sent)

        await socket.close(code: .normalClosure, reason: "done")
        let closure = WebSocketClosure(code: .normalClosure, reason: "done", byPeer: false)
        #expect(socket.closure == closure)
        #expect(seen.withLock { $0 } == closure)  // close waited for the peer's script
        #expect(mock.webSocketPeers.map(\.closure) == [closure])
        #expect(try await messages.next() == nil)
        #expect(mock.requests.map(\.path) == ["/echo"])
        #expect(mock.requests.map(\.method) == [.get])
    }

    @Test func thePeersCloseEndsTheMessagesAfterThoseSentBeforeIt() async throws {
        let mock = MockTransport()
        mock.webSocket("/restart") { peer in
            try await peer.send(text: "last")
            peer.close(code: .goingAway, reason: "restarting")
        }
        let socket = try await open(mock, "/restart")
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("last"))
        #expect(try await messages.next() == nil)
        let closure = WebSocketClosure(code: .goingAway, reason: "restarting", byPeer: true)
        #expect(socket.closure == closure)
        let error = await #expect(throws: StrataError.self) { try await socket.send(text: "late") }
        #expect(error?.kind == .webSocket)
        #expect(error?.webSocketError == .closed(closure))
    }

    @Test func aDropIsALostConnectionAfterTheMessagesSentBeforeIt() async throws {
        let mock = MockTransport()
        mock.webSocket("/drop") { peer in
            try await peer.send(text: "before")
            peer.drop()
        }
        let socket = try await open(mock, "/drop")
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("before"))
        let error = await #expect(throws: StrataError.self) { try await messages.next() }
        #expect(error?.kind == .transport)
        #expect(error?.transportError?.kind == .connectionLost)
        #expect(socket.closure == WebSocketClosure(code: .abnormalClosure, byPeer: true))
    }

    @Test func aScriptThatReturnsClosesWith1000AndOneThatThrowsWith1011() async throws {
        let mock = MockTransport()
        mock.webSocket("/done") { peer in try await peer.send(text: "bye") }
        mock.webSocket("/fail") { _ in throw Boom() }

        let done = try await open(mock, "/done")
        var messages = done.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("bye"))
        #expect(try await messages.next() == nil)
        #expect(done.closure == WebSocketClosure(code: .normalClosure, byPeer: true))

        let failed = try await open(mock, "/fail")
        #expect(try await firstMessage(failed) == nil)
        #expect(failed.closure == WebSocketClosure(code: .internalError, reason: "Boom()", byPeer: true))
    }

    // MARK: Keep-alive

    @Test func aPeerThatStopsAnsweringPingsIsGivenUp() async throws {
        let mock = MockTransport()
        mock.webSocket("/quiet") { peer in
            peer.answersPings = false
            for await _ in peer.messages {}
        }
        var configuration = WebSocketConfiguration()
        configuration.pingInterval = .milliseconds(50)
        configuration.pongTimeout = .milliseconds(50)
        let socket = try await open(mock, "/quiet", configuration: configuration)
        var messages = socket.messages.makeAsyncIterator()
        let error = await #expect(throws: StrataError.self) { try await messages.next() }
        #expect(error?.kind == .webSocket)
        #expect(error?.webSocketError == .unresponsivePeer(pongTimeout: .milliseconds(50)))
        #expect(socket.closure == WebSocketClosure(code: .abnormalClosure, byPeer: true))
        #expect(mock.webSocketPeers.first?.closure == socket.closure)
        // One ping, unless the script was late to stop answering the first.
        #expect((1...2).contains(mock.webSocketPeers.first?.pingsReceived ?? 0))
    }

    @Test func aPeerThatAnswersPingsKeepsTheConnection() async throws {
        let mock = MockTransport()
        mock.webSocket("/live") { peer in
            for await _ in peer.messages {}
        }
        var configuration = WebSocketConfiguration()
        configuration.pingInterval = .milliseconds(20)
        configuration.pongTimeout = .milliseconds(20)
        let socket = try await open(mock, "/live", configuration: configuration)
        let peer = try #require(mock.webSocketPeers.first)
        try await eventually { peer.pingsReceived >= 4 }
        #expect(peer.pingsReceived >= 4)
        #expect(socket.closure == nil)
        await socket.close()
    }

    // MARK: Reconnection

    @Test func aReconnectionReadsOnAcrossTheDropAndSubscribesAgain() async throws {
        let mock = MockTransport()
        let firsts = Locked<[WebSocketMessage?]>([])
        mock.webSocket("/feed") { peer in
            var messages = peer.messages.makeAsyncIterator()
            let first = await messages.next()
            firsts.withLock { $0.append(first) }
            guard peer.connection > 1 else {
                try await peer.send(text: "one")
                return peer.drop()
            }
            try await peer.send(text: "two")
            while let message = await messages.next() { try await peer.send(message) }
        }
        let configuration = reconnecting { socket in try await socket.send(text: "subscribe") }
        let socket = try await open(mock, "/feed", configuration: configuration)
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("one"))
        #expect(try await messages.next() == .text("two"))
        try await socket.send(text: "echo")
        #expect(try await messages.next() == .text("echo"))

        #expect(socket.connections == 2)
        #expect(mock.requests.map(\.path) == ["/feed", "/feed"])
        #expect(mock.webSocketPeers.map(\.connection) == [1, 2])
        #expect(firsts.withLock { $0 } == [.text("subscribe"), .text("subscribe")])
        await socket.close()
        #expect(
            mock.webSocketPeers.map(\.closure) == [
                WebSocketClosure(code: .abnormalClosure, byPeer: true),
                WebSocketClosure(code: .normalClosure, byPeer: false),
            ])
    }

    @Test func aFinalCloseCodeDoesNotReconnect() async throws {
        let mock = MockTransport()
        mock.webSocket("/strict") { peer in peer.close(code: .policyViolation, reason: "banned") }
        let socket = try await open(mock, "/strict", configuration: reconnecting())
        #expect(try await firstMessage(socket) == nil)
        #expect(socket.closure == WebSocketClosure(code: .policyViolation, reason: "banned", byPeer: true))
        #expect(socket.connections == 1)
        #expect(mock.webSocketPeers.count == 1)
        #expect(mock.requests.count == 1)
    }

    @Test func aCloseCodeThatIsNotFinalReconnects() async throws {
        let mock = MockTransport()
        mock.webSocket("/restart") { peer in
            guard peer.connection > 1 else { return peer.close(code: .goingAway, reason: "restarting") }
            try await peer.send(text: "back")
            for await _ in peer.messages {}
        }
        let socket = try await open(mock, "/restart", configuration: reconnecting())
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("back"))
        #expect(socket.connections == 2)
        #expect(mock.webSocketPeers.count == 2)
        await socket.close()
    }

    // MARK: Limits

    @Test func aMessageOverTheLimitClosesWith1009() async throws {
        let mock = MockTransport()
        mock.webSocket("/big") { peer in
            try await peer.send(text: "12345678")
            try await peer.send(text: "123456789")
            for await _ in peer.messages {}
        }
        var configuration = WebSocketConfiguration()
        configuration.maxMessageSize = 8
        let socket = try await open(mock, "/big", configuration: configuration)
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("12345678"))
        let error = await #expect(throws: StrataError.self) { try await messages.next() }
        #expect(error?.kind == .webSocket)
        #expect(error?.webSocketError == .messageTooLarge(limit: 8))
        let closure = WebSocketClosure(code: .messageTooBig, byPeer: false)
        #expect(socket.closure == closure)
        #expect(mock.webSocketPeers.first?.closure == closure)
    }

    @Test func thePeersSendsWaitForASlowReader() async throws {
        let mock = MockTransport()
        let sent = Locked(0)
        mock.webSocket("/firehose") { peer in
            for number in 1...40 {
                try await peer.send(text: "\(number)")
                sent.withLock { $0 = number }
            }
        }
        let socket = try await open(mock, "/firehose")
        try await eventually { sent.withLock { $0 } == 16 }
        try await Task.sleep(for: .milliseconds(50))
        #expect(sent.withLock { $0 } == 16)
        var received: [WebSocketMessage] = []
        for try await message in socket.messages { received.append(message) }
        #expect(received == (1...40).map { .text("\($0)") })
        #expect(sent.withLock { $0 } == 40)
        #expect(socket.closure == WebSocketClosure(code: .normalClosure, byPeer: true))
    }

    // MARK: The peer's task

    @Test func closingWaitsForThePeersScriptToEnd() async throws {
        let mock = MockTransport()
        let ended = holdingPeer(mock, "/hold")
        let socket = try await open(mock, "/hold")
        await socket.close(code: .goingAway, reason: "leaving")
        #expect(ended.withLock { $0 })
        #expect(
            mock.webSocketPeers.first?.closure == WebSocketClosure(code: .goingAway, reason: "leaving", byPeer: false))
    }

    @Test func cancellingTheReaderClosesWith1001AndEndsThePeer() async throws {
        let mock = MockTransport()
        let ended = holdingPeer(mock, "/hold")
        let socket = try await open(mock, "/hold")
        let reader = Task { try await firstMessage(socket) }
        try await Task.sleep(for: .milliseconds(50))
        reader.cancel()
        guard case .failure(let error) = await reader.result else {
            Issue.record("the cancelled reader read a message")
            return
        }
        #expect(StrataError.isCancellation(error))
        #expect(socket.closure == WebSocketClosure(code: .goingAway, byPeer: false))
        try await eventually { ended.withLock { $0 } }
        #expect(ended.withLock { $0 })
    }

    // MARK: Models

    @Test func messagesDecodeIntoModelsUntilOneIsNotJSON() async throws {
        let mock = MockTransport()
        mock.webSocket("/prices") { peer in
            try await peer.send(text: #"{"symbol":"AAPL","price":189.5}"#)
            try await peer.send(Data(#"{"symbol":"MSFT","price":410.25}"#.utf8))
            try await peer.send(text: "not json")
            for await _ in peer.messages {}
        }
        let socket = try await open(mock, "/prices")
        var prices = socket.messages.decoding(Price.self).makeAsyncIterator()
        #expect(try await prices.next() == Price(symbol: "AAPL", price: 189.5))
        #expect(try await prices.next() == Price(symbol: "MSFT", price: 410.25))
        let error = await #expect(throws: StrataError.self) { try await prices.next() }
        #expect(error?.kind == .decoding)
        #expect(error?.bodySnippet == "not json")
        #expect(try await prices.next() == nil)
        #expect(socket.closure == nil)  // the socket stays open
        await socket.close()
    }

    // MARK: Handshakes

    @Test func aRefusedHandshakeIsAStatusFailureWithItsBody() async throws {
        let mock = MockTransport()
        mock.webSocket("/secure", refusing: .text("denied", status: .unauthorized))
        let error = await refusal(mock, "/secure")
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.status == .unauthorized)
        #expect(error?.bodySnippet == "denied")
        #expect(mock.requests.map(\.path) == ["/secure"])
        #expect(mock.webSocketPeers.isEmpty)
    }

    @Test func aConditionalStubLetsTheClientRefreshItsToken() async throws {
        let mock = MockTransport()
        mock.webSocket("/secure", refusing: .status(.unauthorized))
        mock.webSocket("/secure", subprotocol: "chat", when: { $0.headerFields[.authorization] == "Bearer fresh" }) {
            peer in
            try await peer.send(text: "welcome")
            for await _ in peer.messages {}
        }
        let provider = BearerTokenProvider(BearerToken("stale")) { _ in BearerToken("fresh") }
        let socket = try await open(mock, "/secure", middleware: [AuthenticationMiddleware(provider)])
        #expect(mock.requests.map { $0.headerFields[.authorization] } == ["Bearer stale", "Bearer fresh"])
        #expect(socket.subprotocol == "chat")
        #expect(mock.webSocketPeers.map { $0.request.headerFields[.authorization] } == ["Bearer fresh"])
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("welcome"))
        await socket.close()
    }

    @Test func aHandshakeNoStubTakesIsRefusedWith404NamingTheStubs() async throws {
        let mock = MockTransport()
        mock.webSocket("/rooms/:room", query: ["v": "2"]) { _ in }
        let error = await refusal(mock, "/rooms/7")
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.status == .notFound)
        #expect(error?.bodySnippet?.contains("no stub for GET /rooms/7") == true)
        #expect(error?.bodySnippet?.contains("WS /rooms/:room?v=2") == true)
    }

    @Test func thePeerSeesThePathParametersAndTheHandshake() async throws {
        let mock = MockTransport()
        mock.webSocket("/rooms/:room?v=2") { peer in
            try await peer.send(text: "room \(peer.parameters["room"] ?? "?"), \(peer.request.path ?? "")")
            for await _ in peer.messages {}
        }
        let socket = try await open(mock, "/rooms/7?v=2&lang=en")
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("room 7, /rooms/7?v=2&lang=en"))
        #expect(mock.webSocketPeers.map(\.parameters) == [["room": "7"]])
        await socket.close()
    }
}
