import Foundation
import HTTPTypes
import OpenAPIRuntime
import Strata
import StrataOpenAPI
import Testing

extension HTTPField.Name {
    static let operation = HTTPField.Name("X-Operation")!
    static let seenBy = HTTPField.Name("X-Seen-By")!
}

/// An OpenAPI client middleware that tells the server its operation and marks the response.
struct TaggingClientMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.operation] = "\(operationID) \(request.path ?? "") \(baseURL.absoluteString)"
        var (response, responseBody) = try await next(request, body, baseURL)
        response.headerFields[.seenBy] = "client middleware"
        return (response, responseBody)
    }
}

/// An OpenAPI client middleware that sends the body it is given on unchanged.
struct PassingClientMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await next(request, body, baseURL)
    }
}

/// A Strata step that tells the server its call's operation and marks the response.
struct TaggingStep: Middleware {
    func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        var request = request
        request.headerFields[.operation] =
            "\(context.openAPIOperationID ?? "none") \(request.scheme ?? "")://\(request.authority ?? "")\(request.path ?? "")"
        var (response, responseBody) = try await next(request, body, context)
        response.headerFields[.seenBy] = "strata step"
        return (response, responseBody)
    }
}

/// A Strata step that reports the replayability of the body it is given in a header.
struct ReplayabilityStep: Middleware {
    func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        var request = request
        request.headerFields[.seenBy] = "\(body?.isReplayable == true) \(body?.bufferedData?.count ?? -1)"
        return try await next(request, body, context)
    }
}

/// A Strata step that sends the request on where its credentials must not go, as a
/// redirect to another origin does.
struct WithholdingStep: Middleware {
    func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        var context = context
        context.adjustBeforeTransport { $0.headerFields = $0.headerFields.removingCredentials() }
        return try await next(request, body, context)
    }
}

/// OpenAPI client middleware in Strata's pipeline, and Strata steps in a generated client's.
@Suite struct MiddlewareAdapterTests {
    @Test func aClientMiddlewareRunsAsAStrataStep() async throws {
        try await withDemoServer { server, transport in
            let networker = Networker(transport: transport, middleware: [OpenAPIMiddleware(TaggingClientMiddleware())])
            let (response, body) = try await NetworkerTransport(networker).send(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/headers"), body: nil,
                baseURL: server.baseURL, operationID: "getHeaders")
            #expect(response.headerFields[.seenBy] == "client middleware")
            let echoed = try JSONDecoder().decode(
                [String: [String: String]].self, from: try await Data(collecting: try #require(body), upTo: 1 << 16))
            #expect(echoed["headers"]?["x-operation"] == "getHeaders /headers \(server.baseURL.absoluteString)")
        }
    }

    @Test func aBodyTheClientMiddlewarePassesOnIsTheVeryBody() async throws {
        try await withDemoServer { server, transport in
            let networker = Networker(
                transport: transport, middleware: [OpenAPIMiddleware(PassingClientMiddleware()), ReplayabilityStep()])
            var endpoint = Endpoint<String>(
                RequestDescription(
                    route: try server.baseURL + "headers", method: .get,
                    body: .data(Data("12345".utf8), contentType: "text/plain")))
            endpoint.validation = .acceptAll
            let echoed = try await networker.send(endpoint)
            #expect(echoed.contains(#""x-seen-by":"true 5""#), "\(echoed)")
        }
    }

    @Test func aStrataStepRunsAsAClientMiddleware() async throws {
        let middleware = StrataClientMiddleware(TaggingStep())
        let received = Locked<[(HTTPRequest, URL, String?)]>([])
        let (response, body) = try await middleware.intercept(
            HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/users/1?x=1"),
            body: HTTPBody("payload"), baseURL: try #require(URL(string: "http://api.example:8443/v2/")),
            operationID: "putUser"
        ) { request, body, baseURL in
            var text: String?
            if let body { text = try await String(collecting: body, upTo: 1024) }
            received.withLock { $0.append((request, baseURL, text)) }
            return (HTTPResponse(status: .accepted), HTTPBody("done"))
        }
        #expect(response.status == .accepted)
        #expect(response.headerFields[.seenBy] == "strata step")
        #expect(try await String(collecting: try #require(body), upTo: 1024) == "done")
        let calls = received.withLock { $0 }
        #expect(calls.count == 1)
        let (request, baseURL, text) = try #require(calls.first)
        #expect(request.path == "/users/1?x=1")
        #expect(request.scheme == nil)
        #expect(request.authority == nil)
        #expect(request.headerFields[.operation] == "putUser http://api.example:8443/v2/users/1?x=1")
        #expect(baseURL.absoluteString == "http://api.example:8443/v2")
        #expect(text == "payload")
    }

    @Test func strataHeadersMiddlewareAddsItsFieldsInAClientMiddlewareChain() async throws {
        let middleware = StrataClientMiddleware(
            HeadersMiddleware([.userAgent: "Strata", .accept: "application/json"]))
        let fields = Locked<HTTPFields>([:])
        _ = try await middleware.intercept(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/me", headerFields: [.accept: "text/plain"]),
            body: nil, baseURL: try #require(URL(string: "https://example.test")), operationID: "getMe"
        ) { request, _, _ in
            fields.withLock { $0 = request.headerFields }
            return (HTTPResponse(status: .ok), nil)
        }
        let sent = fields.withLock { $0 }
        #expect(sent[.accept] == "text/plain")
        #expect(sent[.userAgent] == "Strata")
        #expect(sent.count == 2)
    }

    @Test func aStepThatWithholdsCredentialsPassesOnNone() async throws {
        let middleware = StrataClientMiddleware(WithholdingStep())
        let fields = Locked<HTTPFields>([:])
        _ = try await middleware.intercept(
            HTTPRequest(
                method: .get, scheme: nil, authority: nil, path: "/me",
                headerFields: [.authorization: "Bearer t", .cookie: "a=b", .accept: "application/json"]),
            body: nil, baseURL: try #require(URL(string: "https://example.test")), operationID: "getMe"
        ) { request, _, _ in
            fields.withLock { $0 = request.headerFields }
            return (HTTPResponse(status: .ok), nil)
        }
        #expect(fields.withLock { $0 } == [.accept: "application/json"])
    }
}
