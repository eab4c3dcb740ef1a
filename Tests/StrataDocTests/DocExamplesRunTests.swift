import Foundation
import Strata
import StrataAsyncHTTPClient
import StrataDemoServer
import StrataTestServer
import StrataTesting
import Testing

/// Runs the doc examples whose results are cheap to check, and checks them exactly: the
/// values their comments promise, the requests they send, what they show the user. The
/// examples are the generated functions of `DocExamples.swift`, so what runs here is the
/// docs' own text.
@Suite struct DocExamplesRunTests {
    @Test func formEncoderExampleGivesTheQueryItsCommentShows() async throws {
        let query = try await example_StrataCore_Encoding_URLEncodedForm_URLEncodedFormEncoder_1()
        #expect(query == "filter%5Btag%5D%5B%5D=x&filter%5Btag%5D%5B%5D=y&page=2&q=a%20b")
    }

    @Test func cacheControlExampleReadsTheMaxAgeItsCommentShows() async throws {
        #expect(try await example_Strata_Features_Caching_CacheControl_1() == 60)
    }

    @Test func jsonExamplesGiveTheValuesTheirCommentsShow() async throws {
        let (name, firstTag) = try await example_StrataCore_Models_JSON_1()
        #expect(name == "Ann")
        #expect(firstTag == "admin")
        #expect(try await example_StrataCore_Models_JSON_Foundation_1() == 31)
    }

    /// The test server's protected route, reached by the example over AsyncHTTPClient.
    @Test func authRoutesExampleIsAcceptedByTheTestServer() async throws {
        let transport = AsyncHTTPClientTransport()
        let outcome: Result<(body: String, accepted: Int), any Error>
        do {
            outcome = .success(try await example_StrataTestServer_AuthRoutes_1(transport: transport))
        } catch {
            outcome = .failure(error)
        }
        try await transport.shutdown()
        let (body, accepted) = try outcome.get()
        #expect(body == "ok fresh-1")
        #expect(accepted == 1)
    }

    @Test func readmeQuickStartEncodesTheLoginForm() async throws {
        let encoded = try await example_README_quick_start()
        #expect(encoded.url == "http://example.com/user/auth")
        #expect(encoded.contentType == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(encoded.body == Data("login=ann&password=p%40ss%20word".utf8))
        #expect(encoded.userURL == "http://example.com/user/42")
    }

    @Test func testingMockExampleSendsOneRequest() async throws {
        let (name, paths) = try await example_Strata_Documentation_docc_Testing_stubs()
        #expect(name == "Ann")
        #expect(paths == ["/user/42"])
    }

    @Test func errorsExampleDecodesTheServersError() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/user/:id", with: .json(["error": "name too short"], status: .unprocessableContent))
        #expect(
            try await example_Strata_Documentation_docc_SendingAndErrors_errors(networker: Networker(transport: mock))
                == ["name too short"])
    }

    @Test func statusCodeExampleComparesWithAnInt() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/user/:id", with: .json(["error": "no such user"], status: .notFound))
        #expect(
            try await example_Strata_Documentation_docc_SendingAndErrors_errors_2(networker: Networker(transport: mock))
                == ["no such user"])
        mock.stub(.get, "/user/:id", with: .json(["name": "Ann"]))
        #expect(
            try await example_Strata_Documentation_docc_SendingAndErrors_errors_2(networker: Networker(transport: mock))
                == ["Ann"])
    }

    @Test func errorsExampleShowsTheUserOnSuccess() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/user/:id", with: .json(["name": "Ann"]))
        #expect(
            try await example_Strata_Documentation_docc_SendingAndErrors_errors(networker: Networker(transport: mock))
                == ["Ann"])
    }

    @Test func migrationExampleSendsWhatItSays() async throws {
        let transport = MockTransport()
        transport.stub(.get, "/users/42", with: .json(["id": 42, "name": "Ann"]))
        transport.stub(.get, "/users/43", with: .status(.noContent))
        transport.stub(.delete, "/users/42", with: .status(.noContent))

        let result = try await example_Strata_Documentation_docc_Migrating_overview(
            transport: transport, api: URL(string: "https://api.example.com"), traceID: "t-1")

        #expect(result.user == "Ann")
        #expect(result.fresh == "Ann")
        #expect(result.gone == nil)
        let sent = transport.requests.map {
            [
                $0.method.rawValue, $0.path, $0.headerFields[.userAgent] ?? "",
                $0.headerFields[HTTPField.Name("X-Trace")!] ?? "",
            ]
        }
        #expect(
            sent == [
                ["GET", "/users/42", "MyApp/1.0", ""],
                ["GET", "/users/42", "MyApp/1.0", "t-1"],
                ["DELETE", "/users/42", "MyApp/1.0", ""],
                ["GET", "/users/43", "MyApp/1.0", ""],
            ])
        #expect(transport.requests.prefix(2).map { $0.headerFields[HTTPField.Name("X-Token")!] } == ["abc", "abc"])
    }

    @Test func migrationEncodingsAreTheOnesItDescribes() async throws {
        let encoded = try await example_Strata_Documentation_docc_Migrating_overview_2()
        #expect(encoded.search == "https://api.example.com/users?page=2&q=ann")
        #expect(encoded.create == Data(#"{"age":31,"name":"Ann","tags":["a","b"]}"#.utf8))
        #expect(encoded.signup == Data("first_name=Ann&home_city=Oslo".utf8))
    }

    @Test func resiliencePresetIsInTheDocumentedOrder() async throws {
        let networker = try await example_Strata_Documentation_docc_Resilience_overview()
        let names = networker.middleware.map { "\(type(of: $0))" }
        #expect(
            names == [
                "RedirectMiddleware", "RetryMiddleware", "CircuitBreakerMiddleware",
                "AuthenticationMiddleware<BearerTokenProvider>", "HeadersMiddleware",
            ])
    }

    /// The transport's own example, sending `GET /users/1` to the in-process demo server: the
    /// user's 153 bytes, and the shutdown it ends with (a transport left running would stop
    /// a debug build when its client is released).
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func asyncHTTPClientTransportExampleReadsTheDemoUser() async throws {
        let server = try await DemoServer.start()
        let outcome: Result<(status: Int, bytes: Int?), any Error>
        do {
            let request = HTTPRequest(method: .get, url: server.baseURL.appending(path: "users/1"))
            outcome = .success(try await example_StrataAsyncHTTPClient_AsyncHTTPClientTransport_1(request: request))
        } catch {
            outcome = .failure(error)
        }
        await server.shutdown()
        let (status, bytes) = try outcome.get()
        #expect(status == 200)
        #expect(bytes == 153)
    }

    /// Getting started's first request, over AsyncHTTPClient against the in-process demo
    /// server: the example creates its transport and shuts it down on every path.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func gettingStartedReadsAnnFromTheDemoServer() async throws {
        let server = try await DemoServer.start()
        let outcome: Result<[String], any Error>
        do {
            outcome = .success(
                try await example_Strata_Documentation_docc_GettingStarted_send_a_request(baseURL: server.baseURL))
        } catch {
            outcome = .failure(error)
        }
        await server.shutdown()
        #expect(try outcome.get() == ["Ann 2"])
    }

    @Test func routesArticleEncodesTheLoginForm() async throws {
        let encoded = try await example_Strata_Documentation_docc_RequestsRoutesAndEncodings_parameters_and_encodings()
        #expect(encoded.url == "http://example.com/user/auth")
        #expect(encoded.contentType == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(encoded.body == Data("login=ann&password=p%40ss%20word".utf8))
        #expect(
            try await example_Strata_Documentation_docc_RequestsRoutesAndEncodings_parameters_and_encodings_2()
                == Data("first_name=Ann&home_city=Oslo".utf8))
    }

    @Test func endpointModifiersSetTheCallsTimeouts() async throws {
        let endpoint =
            try await example_Strata_Documentation_docc_RequestsRoutesAndEncodings_endpoints_and_per_call_settings()
        #expect(endpoint.timeout == .seconds(5))
        #expect(endpoint.attemptTimeout == .seconds(2))
    }

    /// A failing call of the same example still shuts its transport down: nothing listens
    /// at the address, and the test ends without AsyncHTTPClient's deinit check firing.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func gettingStartedShutsItsTransportDownWhenTheCallFails() async throws {
        let server = try await DemoServer.start()
        let baseURL = server.baseURL
        await server.shutdown()
        await #expect(throws: StrataError.self) {
            try await example_Strata_Documentation_docc_GettingStarted_send_a_request(baseURL: baseURL)
        }
    }

    /// Runs `body` with the demo server's base URL and an AsyncHTTPClient transport, and
    /// shuts both down whatever `body` does.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    private func againstDemoServer<Value>(
        _ body: (_ baseURL: URL, _ transport: AsyncHTTPClientTransport) async throws -> Value
    ) async throws -> Value {
        let server = try await DemoServer.start()
        let transport = AsyncHTTPClientTransport()
        let outcome: Result<Value, any Error>
        do {
            outcome = .success(try await body(server.baseURL, transport))
        } catch {
            outcome = .failure(error)
        }
        try await transport.shutdown()
        await server.shutdown()
        return try outcome.get()
    }

    /// Testing's recording example, over AsyncHTTPClient against the demo server: one
    /// exchange recorded, then the same user served from the file.
    @Test func recordingExampleRecordsAndReplaysTheDemoUser() async throws {
        defer { try? FileManager.default.removeItem(atPath: "/tmp/user.har") }
        let (recorded, user) = try await againstDemoServer { baseURL, transport in
            try await example_Strata_Documentation_docc_Testing_recordings(transport: transport, baseURL: baseURL)
        }
        #expect(recorded == 1)
        #expect(user == "Ann")
    }

    /// Transfers' download example against the demo server's file, which a whole-file
    /// answer cuts after 1 MiB: the client's retry step asks for the rest (from the bytes
    /// it got) in the same call.
    @Test func downloadExampleResumesTheDemoFileInOneCall() async throws {
        let destination = "/tmp/movie.mp4"
        try? FileManager.default.removeItem(atPath: destination)
        try? FileManager.default.removeItem(atPath: destination + ".strata-partial")
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let result = try await againstDemoServer { baseURL, transport in
            try await example_Strata_Documentation_docc_Transfers_overview_2(
                networker: Networker(transport: transport, middleware: .resilient()),
                movieEndpoint: Endpoint(RequestDescription(route: try baseURL + "/files/tour.bin")))
        }
        #expect(result.bytes == 2 << 20)
        #expect(result.retries == 1)
        // The server writes 1 MiB and closes; what reached the client before the close is
        // where the retry resumes (on a loaded machine, less than all of it).
        #expect(result.resumedFrom > 0 && result.resumedFrom <= 1 << 20, "resumed from \(result.resumedFrom)")
        #expect(FileManager.default.contents(atPath: destination) == Data((0..<(2 << 20)).map { UInt8($0 % 251) }))
    }

    /// OpenAPI's first example: the demo API's generated client over a `.resilient()`
    /// Networker over AsyncHTTPClient, against the demo server.
    @Test func openAPIExampleReadsTheDemoUserThroughTheGeneratedClient() async throws {
        let user = try await againstDemoServer { baseURL, transport in
            try await example_Strata_Documentation_docc_OpenAPI_overview(transport: transport, serverURL: baseURL)
        }
        #expect(user.name == "Ann")
        #expect(user.age == 30)
    }
}
