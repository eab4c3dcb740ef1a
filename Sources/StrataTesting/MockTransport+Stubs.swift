import Foundation
import HTTPTypes

extension MockTransport {
    /// Answers `method` requests whose path matches `path` with `response`.
    ///
    /// `path` is matched against the URL path only: `:name` segments match any one
    /// segment, `*` matches any one segment and `**` any number of them. Query items
    /// in `query` (or after a `?` in `path`) must all be present in the request; other
    /// query items are allowed. Later stubs win over earlier ones.
    public func stub(
        _ method: HTTPRequest.Method,
        _ path: String,
        query: [String: String] = [:],
        with response: MockResponse
    ) {
        stub(method, path, query: query, with: [response])
    }

    /// Answers matching requests with `responses` in order; the last one repeats.
    /// Useful for retries: `[.status(.serviceUnavailable), .json(["ok": true])]`.
    public func stub(
        _ method: HTTPRequest.Method,
        _ path: String,
        query: [String: String] = [:],
        with responses: [MockResponse]
    ) {
        add(Self.route(method, path, query), .responses(responses))
    }

    /// Answers matching requests with whatever `handler` makes of the request and the
    /// `:name` path parameters.
    ///
    /// ```swift
    /// mock.stub(.get, "/users/:id") { request, parameters in
    ///     .json(["id": .string(parameters["id"] ?? "")])
    /// }
    /// ```
    public func stub(
        _ method: HTTPRequest.Method,
        _ path: String,
        query: [String: String] = [:],
        handler: @escaping @Sendable (RecordedRequest, [String: String]) async throws -> MockResponse
    ) {
        add(Self.route(method, path, query), .handler(handler))
    }

    /// Offers every request to `handler`, which returns a response or `nil` to let
    /// earlier stubs try.
    public func stub(
        _ handler: @escaping @Sendable (HTTPRequest, Data) async throws -> MockResponse?
    ) {
        add(.custom, .custom(handler))
    }

    /// Throws ``MockTransportError/stubsNotCalled(_:)`` naming the stubs that never
    /// answered a request.
    public func verifyAllStubsCalled() throws {
        let uncalled = state.withLock { state in
            state.stubs.reversed().filter { state.callCounts[$0.id, default: 0] == 0 }.map(\.description)
        }
        guard uncalled.isEmpty else { throw MockTransportError.stubsNotCalled(uncalled) }
    }

    private func add(_ route: MockStub.Route, _ action: MockStub.Action) {
        state.withLock { state in
            state.stubs.append(MockStub(id: state.nextStubID, route: route, action: action))
            state.nextStubID += 1
        }
    }

    /// The route for `path`, with any query written after a `?` merged into `query`.
    private static func route(_ method: HTTPRequest.Method, _ path: String, _ query: [String: String]) -> MockStub.Route
    {
        let target = MockRequestTarget(path)
        var merged = query
        for item in target.queryItems where merged[item.name] == nil {
            merged[item.name] = item.value
        }
        return .path(method: method, pattern: MockPathPattern(target.path), query: merged)
    }
}
