import Foundation
import HTTPTypes
import Strata

/// WebSockets without a server: a `Networker` over a ``MockTransport`` opens sockets
/// (`Networker.webSocket`) whose other end is a script, a ``MockWebSocketPeer``.
///
/// ```swift
/// let mock = MockTransport()
/// mock.webSocket("/echo") { peer in
///     for await message in peer.messages { try await peer.send(message) }
/// }
/// let networker = Networker(transport: mock)
/// let socket = try await networker.webSocket(RequestDescription(route: "wss://api.example.com/echo"))
/// try await socket.send(text: "hello")
/// ```
///
/// The handshake goes through the client's steps like any call, and is recorded in
/// ``requests``. WebSocket stubs are tried latest first, apart from the HTTP stubs; a
/// handshake none takes is refused with `404 Not Found`, its body naming the stubs.
extension MockTransport: WebSocketTransport {
    /// Accepts the WebSocket handshakes that `path` and `query` take, and runs `handler` as
    /// the peer of each connection, in a task of its own that ends with the connection (see
    /// ``MockWebSocketPeer``).
    ///
    /// With a `condition`, a stub can accept only some handshakes and leave the others to
    /// earlier stubs, such as one that refuses them:
    ///
    /// ```swift
    /// let mock = MockTransport()
    /// mock.webSocket("/feed", refusing: .status(.unauthorized))
    /// mock.webSocket("/feed", when: { $0.headerFields[.authorization] == "Bearer fresh" }) { peer in
    ///     try await peer.send(text: "welcome")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - path: the URL path, as for the HTTP stubs: `:name` parameters (the peer's
    ///     ``MockWebSocketPeer/parameters``), `*` and `**` wildcards, and query items after
    ///     a `?`, which join `query`.
    ///   - query: name–value pairs the handshake's query must hold; others are allowed.
    ///   - subprotocol: the subprotocol the server chooses (its `Sec-WebSocket-Protocol`
    ///     field, the socket's `WebSocket.subprotocol`); `nil` for none.
    ///   - condition: when set, the stub takes only the handshakes for which it returns `true`.
    ///   - handler: the peer's script, run once per connection.
    public func webSocket(
        _ path: String,
        query: [String: String] = [:],
        subprotocol: String? = nil,
        when condition: (@Sendable (RecordedRequest) -> Bool)? = nil,
        handler: @escaping @Sendable (MockWebSocketPeer) async throws -> Void
    ) {
        addWebSocketStub(path, query, condition, .accept(subprotocol: subprotocol, script: handler))
    }

    /// Refuses the WebSocket handshakes that `path`, `query` and `condition` take (as
    /// ``webSocket(_:query:subprotocol:when:handler:)`` does) with `response`: its status,
    /// header fields and body, after its delay, or its error thrown instead.
    /// `Networker.webSocket` then throws a `StrataError` of kind
    /// `StrataError.Kind.unacceptableStatus` with the response and its body.
    public func webSocket(
        _ path: String,
        query: [String: String] = [:],
        when condition: (@Sendable (RecordedRequest) -> Bool)? = nil,
        refusing response: MockResponse
    ) {
        addWebSocketStub(path, query, condition, .refuse(response))
    }

    /// The peer of every WebSocket connection opened so far, oldest first: as many as the
    /// handshakes the stubs accepted, reconnections included.
    public var webSocketPeers: [MockWebSocketPeer] {
        state.withLock { $0.webSocketPeers }
    }

    /// Records the handshake and answers it from the latest WebSocket stub that takes it:
    /// an open connection to the stub's peer, the stub's refusal, or `404 Not Found`.
    /// - Throws: `TransportError` of kind `TransportError.Kind.timedOut` past `deadline`,
    ///   `CancellationError` when the task is cancelled, a refusing stub's injected error.
    public func openWebSocket(
        _ request: HTTPRequest,
        configuration: WebSocketConfiguration,
        deadline: ContinuousClock.Instant?
    ) async throws -> WebSocketHandshake {
        try Task.checkCancellation()
        let recorded = RecordedRequest(head: request, body: Data())
        let stubs = state.withLock { state in
            state.requests.append(recorded)
            return state.webSocketStubs
        }
        // Conditions run outside the lock, so work on a snapshot.
        let taken = stubs.reversed().lazy.compactMap { stub in stub.match(recorded).map { (stub, $0) } }.first
        guard let (stub, parameters) = taken else {
            let error = MockTransportError.noStub(
                method: request.method, path: request.path ?? "", registeredStubs: stubs.reversed().map(\.description))
            return .refused(HTTPResponse(status: .notFound), MessageBody(Data(error.description.utf8)))
        }
        let connection = state.withLock { state in
            defer { state.callCounts[stub.id, default: 0] += 1 }
            return state.callCounts[stub.id, default: 0] + 1
        }
        switch stub.action {
        case .refuse(let response):
            try await Self.wait(response.delay, deadline: deadline)
            if let error = response.error { throw error }
            return .refused(
                HTTPResponse(status: response.status, headerFields: response.headerFields),
                response.body.isEmpty ? nil : MessageBody(response.body))
        case .accept(let subprotocol, let script):
            try await Self.wait(nil, deadline: deadline)
            let channel = MockWebSocketChannel(maxMessageSize: configuration.maxMessageSize)
            let peer = MockWebSocketPeer(
                request: request, parameters: parameters, connection: connection, channel: channel)
            state.withLock { $0.webSocketPeers.append(peer) }
            channel.start { try await script(peer) }
            var fields: HTTPFields = [.upgrade: "websocket", .connection: "Upgrade"]
            fields[.secWebSocketProtocol] = subprotocol
            return .upgraded(HTTPResponse(status: .switchingProtocols, headerFields: fields), channel)
        }
    }

    private func addWebSocketStub(
        _ path: String,
        _ query: [String: String],
        _ condition: (@Sendable (RecordedRequest) -> Bool)?,
        _ action: MockWebSocketStub.Action
    ) {
        // A query written after a `?` in `path` joins `query`, as for the HTTP stubs.
        let target = MockRequestTarget(path)
        let query = query.merging(target.queryItems.map { ($0.name, $0.value) }) { given, _ in given }
        state.withLock { state in
            state.webSocketStubs.append(
                MockWebSocketStub(
                    id: state.nextStubID, pattern: MockPathPattern(target.path), query: query,
                    condition: condition, action: action))
            state.nextStubID += 1
        }
    }
}
