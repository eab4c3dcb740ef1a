import Foundation
import HTTPTypes
import Hummingbird
import Strata
import StrataTestServer
import StrataTestSupport
import Testing

/// The pipeline contract against a real server, over every transport: the client's
/// deadline covers the body, and a failed response's whole body reaches the app.
@Suite(.isTimed) struct PipelineContractIntegrationTests {
    struct Problem: Codable, Equatable {
        let code: String
        let detail: String
        let fields: [String]
    }

    static let problem = Problem(
        code: "invalid", detail: String(repeating: "too short; ", count: 170),
        fields: (1...20).map { "field\($0)" })

    /// `POST /problem`: a 422 whose JSON body is over 2 KB.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func addProblemRoute(_ router: Router<BasicRequestContext>) {
        router.post("problem") { _, _ in
            let json = try JSONEncoder().encode(Self.problem)
            return Response(
                status: .unprocessableContent, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: json)))
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func unprocessableEntityBodyDecodesIntoTheAppsErrorType(_ kind: TransportKind) async throws {
        try await TestServer.with(configure: Self.addProblemRoute) { server in
            try await kind.with { transport in
                let route = EchoRoute(baseURL: server.baseURL, path: "/problem")
                let endpoint = Endpoint<JSON>(
                    RequestDescription(route: route, method: .post, parameters: ["name": ""] as JSON))
                let error = await #expect(throws: StrataError.self) {
                    try await Networker(transport: transport).send(endpoint)
                }
                #expect(error?.kind == .unacceptableStatus)
                #expect(error?.status?.code == 422)
                #expect((error?.body?.count ?? 0) > 2_000)
                let decoded = try error?.decodeBody(as: Problem.self)
                #expect(decoded == Self.problem)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func stalledBodyIsStoppedByTheClientDeadline(_ kind: TransportKind) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                var configuration = Networker.Configuration()
                configuration.timeout = .seconds(2)
                let networker = Networker(transport: transport, configuration: configuration)
                let start = ContinuousClock.now
                let error = await #expect(throws: StrataError.self) {
                    try await networker.send(
                        Endpoint<Data>(
                            RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: "/stall-body"))))
                }
                #expect(ContinuousClock.now - start < .seconds(6))
                #expect(error?.kind == .transport)
                #expect(error?.isTimeout == true)
                // Both transports stream, so the head arrived first.
                #expect(error?.phase == .readingBody)
            }
        }
    }

    /// Each step that reads a body it drops (the retry step before another attempt, the
    /// validation step for an error snippet, the cache while it stores) reads it within
    /// the deadline: on AsyncHTTPClient these clients run their calls in the caller's
    /// task, where nothing else would stop the read.
    @Test(arguments: TransportKind.allCases, ["retry", "validation", "cache"])
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aStepReadingAStalledBodyStopsAtTheDeadline(_ kind: TransportKind, _ step: String) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                let middleware: [any Middleware] =
                    switch step {
                    case "retry": [RetryMiddleware(policy: RetryPolicy(maxAttempts: 3), budget: nil)]
                    case "validation": [ValidationMiddleware()]
                    default: [CacheMiddleware(store: MemoryCacheStore())]
                    }
                var configuration = Networker.Configuration()
                configuration.timeout = .seconds(1)
                let networker = Networker(transport: transport, middleware: middleware, configuration: configuration)
                let status = step == "cache" ? 200 : 503
                let route = FixedURLRoute(
                    target: URL(string: "\(server.baseURL.absoluteString)/stall-body?status=\(status)")!)
                let start = ContinuousClock.now
                let error = await #expect(throws: StrataError.self) {
                    try await networker.send(Endpoint<Data>(RequestDescription(route: route)))
                }
                #expect(ContinuousClock.now - start < .seconds(5))
                #expect(error?.isTimeout == true, "\(String(describing: error))")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func silentServerTimesOutWaitingForTheHead(_ kind: TransportKind) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                var endpoint = Endpoint<Data>(
                    RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: "/hang")))
                endpoint.timeout = .milliseconds(500)
                let start = ContinuousClock.now
                let error = await #expect(throws: StrataError.self) {
                    try await Networker(transport: transport).send(endpoint)
                }
                #expect(ContinuousClock.now - start < .seconds(6))
                #expect(error?.isTimeout == true)
                #expect(error?.phase == .awaitingHead)
            }
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func streamedBodyOverAsyncHTTPClientStaysWithinTheDeadline() async throws {
        try await TestServer.with { server in
            try await TransportKind.asyncHTTPClient.with { transport in
                var endpoint = Endpoint<Data>(
                    RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: "/stall-body")))
                endpoint.timeout = .seconds(2)
                let (head, body) = try await Networker(transport: transport).stream(endpoint)
                #expect(head.status == .ok)
                var iterator = body.makeAsyncIterator()
                #expect(try await iterator.next() == Data("first".utf8))
                let start = ContinuousClock.now
                let error = await #expect(throws: StrataError.self) { _ = try await iterator.next() }
                #expect(error?.transportError?.kind == .timedOut)
                #expect(error?.phase == .readingBody)
                #expect(error?.request?.path == "/stall-body")
                #expect(error?.status == .ok)
                #expect(ContinuousClock.now - start < .seconds(6))
            }
        }
    }
}
