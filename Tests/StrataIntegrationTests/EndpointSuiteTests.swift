import Foundation
import HTTPTypes
import Strata
import StrataTestServer
import Testing

/// One endpoint suite, run over every real transport against the in-process server.
@Suite struct EndpointSuiteTests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func echo(_ server: TestServer, _ path: String) -> EchoRoute {
        EchoRoute(baseURL: server.baseURL, path: path)
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func getWithQuery(_ kind: TransportKind) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport)
                let request = RequestDescription(
                    route: Self.echo(server, "/echo/search?lang=en"),
                    parameters: ["q": "a b&c", "tags": ["x", "y"], "page": 2] as JSON,
                    encoding: .urlQuery)
                let reply = try await networker.send(Endpoint(request, decoding: EchoReply.self))
                #expect(reply.method == "GET")
                #expect(reply.path == "/echo/search")
                #expect(reply.query == "lang=en&page=2&q=a%20b%26c&tags%5B%5D=x&tags%5B%5D=y")
                #expect(reply.body == "")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func postBodiesArriveByteForByte(_ kind: TransportKind) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport)
                var form = MultipartFormData()
                form.append("Ann ✓", name: "name")
                form.append(
                    Data((0...255).map { UInt8($0) }), name: "file", fileName: "bytes.bin",
                    contentType: "application/octet-stream")
                let requests: [RequestDescription<EchoRoute>] = [
                    RequestDescription(
                        route: Self.echo(server, "/echo/json"), method: .post,
                        parameters: ["name": "Ann", "nested": ["emoji": "🦉", "n": 1.5]] as JSON),
                    RequestDescription(
                        route: Self.echo(server, "/echo/form"), method: .put,
                        parameters: ["login": "ann", "password": "p@ss word/é"] as JSON, encoding: .formURL),
                    RequestDescription(
                        route: Self.echo(server, "/echo/multipart"), method: .patch, body: .multipart(form)),
                ]
                for request in requests {
                    let endpoint = Endpoint(request, decoding: EchoReply.self)
                    let sent = try await endpoint.encoded().body?.collect(upTo: 1 << 20)
                    let reply = try await networker.send(endpoint)
                    #expect(reply.method == request.method.rawValue)
                    #expect(reply.bodyData == sent)
                    #expect(try reply.headers["content-type"] == endpoint.encoded().head.headerFields[.contentType])
                    #expect(reply.headers["content-length"] == sent.map { "\($0.count)" })
                }
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func headersFromRequestAndMiddleware(_ kind: TransportKind) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                let networker = Networker(
                    transport: transport,
                    middleware: [
                        HeadersMiddleware([.userAgent: "Strata-Tests/1", .accept: "application/json"]),
                        HeadersMiddleware.bearerToken { "t0k3n" },
                    ])
                var headers = HTTPFields()
                headers[.accept] = "application/vnd.strata+json"
                headers[HTTPField.Name("X-Trace")!] = "abc"
                let reply = try await networker.send(
                    Endpoint(
                        RequestDescription(route: Self.echo(server, "/echo/h"), headers: headers),
                        decoding: EchoReply.self))
                #expect(reply.headers["user-agent"] == "Strata-Tests/1")
                #expect(reply.headers["accept"] == "application/vnd.strata+json")
                #expect(reply.headers["authorization"] == "Bearer t0k3n")
                #expect(reply.headers["x-trace"] == "abc")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func noContentAndErrorStatuses(_ kind: TransportKind) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport)
                let noContent = try await networker.response(
                    for: Endpoint<Void>(RequestDescription(route: Self.echo(server, "/status/204"))))
                #expect(noContent.head.status.code == 204)
                #expect(noContent.body.isEmpty)
                for code in [404, 500] {
                    let endpoint = Endpoint(
                        RequestDescription(route: Self.echo(server, "/status/\(code)")), model: User.self)
                    let error = await #expect(throws: StrataError.self) { try await networker.send(endpoint) }
                    #expect(error?.kind == .unacceptableStatus)
                    #expect(error?.status?.code == code)
                    #expect(error?.bodySnippet == "status \(code)")
                    #expect(error?.response?.headerFields[.contentType] == "text/plain; charset=utf-8")
                    #expect(error?.request?.path == "/status/\(code)")
                }
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func nonJSONBodyIsADecodingError(_ kind: TransportKind) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport)
                let error = await #expect(throws: StrataError.self) {
                    try await networker.send(
                        Endpoint(RequestDescription(route: Self.echo(server, "/text")), model: User.self))
                }
                #expect(error?.kind == .decoding)
                #expect(error?.mappingError?.typeName.hasSuffix("UserEntry") == true)
                #expect(error?.bodySnippet == "<html><body>not json</body></html>")
                #expect(error?.status?.code == 200)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func hangingHandlerHitsTheDeadline(_ kind: TransportKind) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport)
                var endpoint = Endpoint<String>(RequestDescription(route: Self.echo(server, "/hang")))
                endpoint.timeout = .milliseconds(300)
                let start = ContinuousClock.now
                let error = await #expect(throws: StrataError.self) { try await networker.send(endpoint) }
                #expect(error?.isTimeout == true, "got \(String(describing: error))")
                #expect(start.duration(to: .now) < .seconds(10))
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func cancellationMidRequest(_ kind: TransportKind) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport)
                let endpoint = Endpoint<String>(RequestDescription(route: Self.echo(server, "/hang")))
                let start = ContinuousClock.now
                let task = Task { try await networker.send(endpoint) }
                try await Task.sleep(for: .milliseconds(200))
                task.cancel()
                let result = await task.result
                guard case .failure(let error) = result else {
                    Issue.record("expected cancellation")
                    return
                }
                #expect((error as? StrataError)?.isCancelled == true, "got \(error)")
                #expect(start.duration(to: .now) < .seconds(10))

                let handleResult: Result<String, StrataError> = await withCheckedContinuation { continuation in
                    let handle = networker.load(endpoint) { continuation.resume(returning: $0) }
                    Task {
                        try? await Task.sleep(for: .milliseconds(200))
                        handle.cancel()
                    }
                }
                guard case .failure(let handleError) = handleResult else {
                    Issue.record("expected cancellation through the handle")
                    return
                }
                #expect(handleError.isCancelled)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func seed003PhotoWithResultCallback(_ kind: TransportKind) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport)
                let endpoint = try SeedPhoto.single(by: 5, with: server.baseURL)
                let result: Result<SeedPhoto, StrataError> = await withCheckedContinuation { continuation in
                    networker.load(endpoint) { result in continuation.resume(returning: result) }
                }
                let photo = try result.get()
                #expect(photo.id == 5 && photo.albumId == 1 && photo.title == "Photo 5")
                #expect(photo.thumbnailUrl.absoluteString == "https://img.example/p/5-t.jpg")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func seed002UserThroughBothLayers(_ kind: TransportKind) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport)
                let user = try await networker.send(
                    Endpoint(RequestDescription(route: Self.echo(server, "/json/user/42")), model: User.self))
                #expect(
                    user
                        == User(
                            name: "User 42", age: 30, type: .owner,
                            photos: [
                                Photo(id: "42-1", image: "https://img.example/42/1.jpg"),
                                Photo(id: "42-2", image: "https://img.example/42/2.jpg"),
                            ]))
            }
        }
    }
}
