import Foundation
import HTTPTypes
import Strata
import Testing

@testable import StrataTesting

private let base = "http://example.com"

private func request(_ method: HTTPRequest.Method = .get, _ target: String, headers: HTTPFields = [:]) throws
    -> HTTPRequest
{
    let url = try #require(URL(string: base + target))
    return HTTPRequest(method: method, url: url, headerFields: headers)
}

/// Sends through `mock` and collects the response body as text ("" for no body).
private func send(
    _ mock: MockTransport,
    _ target: String,
    method: HTTPRequest.Method = .get,
    body: MessageBody? = nil,
    deadline: ContinuousClock.Instant? = nil
) async throws -> (HTTPResponse, String) {
    let (response, responseBody) = try await mock.send(try request(method, target), body: body, deadline: deadline)
    let data = try await responseBody?.collect(upTo: 1 << 20) ?? Data()
    return (response, String(decoding: data, as: UTF8.self))
}

private struct Teapot: Error, Sendable, Equatable {}

@Suite struct MockTransportTests {
    // MARK: Responses

    @Test func jsonStubAnswersWithStatusHeadersAndBody() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/users/1", with: .json(["name": "Ann", "age": 31]))
        let (response, body) = try await send(mock, "/users/1")
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentType] == "application/json")
        #expect(body == #"{"age":31,"name":"Ann"}"#)
    }

    @Test func constructorsSetStatusAndContentType() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/text", with: .text("hello", status: .accepted))
        mock.stub(.get, "/html", with: .text("<p/>", contentType: "text/html"))
        mock.stub(.get, "/bytes", with: .data(Data([0x41, 0x42])))
        mock.stub(.get, "/raw", with: .data(Data("x".utf8), contentType: nil))
        mock.stub(.delete, "/gone", with: .status(.noContent))
        mock.stub(.get, "/missing", with: .status(404).header(.cacheControl, "no-store"))

        let (text, textBody) = try await send(mock, "/text")
        #expect(text.status == .accepted)
        #expect(text.headerFields[.contentType] == "text/plain; charset=utf-8")
        #expect(textBody == "hello")
        #expect(try await send(mock, "/html").0.headerFields[.contentType] == "text/html")
        let (bytes, bytesBody) = try await send(mock, "/bytes")
        #expect(bytes.headerFields[.contentType] == "application/octet-stream")
        #expect(bytesBody == "AB")
        #expect(try await send(mock, "/raw").0.headerFields == [:])

        let (gone, goneBody) = try await mock.send(try request(.delete, "/gone"), body: nil, deadline: nil)
        #expect(gone.status == .noContent)
        #expect(gone.headerFields == [:])
        #expect(goneBody == nil)
        let (missing, _) = try await send(mock, "/missing")
        #expect(missing.status.code == 404)
        #expect(missing.headerFields == [.cacheControl: "no-store"])
    }

    @Test func encodableUsesTheGivenEncoder() async throws {
        struct User: Encodable, Sendable { let firstName: String }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let mock = MockTransport()
        mock.stub(.post, "/users", with: try .encodable(User(firstName: "Ann"), encoder: encoder, status: .created))
        let (response, body) = try await send(mock, "/users", method: .post)
        #expect(response.status == .created)
        #expect(response.headerFields[.contentType] == "application/json")
        #expect(body == #"{"first_name":"Ann"}"#)
    }

    @Test func unencodableValuesFailLoudly() async throws {
        #expect(throws: MockTransportError.self) { try MockResponse.encodable(Double.nan) }
        let mock = MockTransport()
        mock.stub(.get, "/nan", with: .json(.double(.infinity)))
        await #expect(throws: MockTransportError.self) { try await send(mock, "/nan") }
    }

    // MARK: Matching

    @Test func pathParametersAndWildcards() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/users/:id/posts/:post") { _, parameters in
            .text("\(parameters["id"] ?? "?")-\(parameters["post"] ?? "?")")
        }
        mock.stub(.get, "/files/*", with: .text("one"))
        mock.stub(.get, "/assets/**/logo.png", with: .text("deep"))

        #expect(try await send(mock, "/users/42/posts/7").1 == "42-7")
        #expect(try await send(mock, "/users/a%20b/posts/7/").1 == "a b-7")
        #expect(try await send(mock, "/files/report.pdf").1 == "one")
        #expect(try await send(mock, "/assets/logo.png").1 == "deep")
        #expect(try await send(mock, "/assets/img/v2/logo.png").1 == "deep")
        await #expect(throws: MockTransportError.self) { try await send(mock, "/files/a/b") }
        await #expect(throws: MockTransportError.self) { try await send(mock, "/users/42/posts") }
        await #expect(throws: MockTransportError.self) { try await send(mock, "/files/x", method: .post) }
    }

    @Test func pathMatchingIgnoresTheQueryUnlessOneIsRequired() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/search", with: .text("any"))
        mock.stub(.get, "/search", query: ["q": "swift lang"], with: .text("swift"))
        mock.stub(.get, "/search?q=rust&page=2", with: .text("rust page 2"))

        #expect(try await send(mock, "/search").1 == "any")
        #expect(try await send(mock, "/search?q=go").1 == "any")
        #expect(try await send(mock, "/search?q=swift%20lang&page=3").1 == "swift")
        #expect(try await send(mock, "/search?q=swift+lang").1 == "swift")
        #expect(try await send(mock, "/search?page=2&q=rust").1 == "rust page 2")
        #expect(try await send(mock, "/search?q=rust").1 == "any")
    }

    @Test func laterStubsWin() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/users/:id", with: .json(["name": "default"]))
        #expect(try await send(mock, "/users/1").1 == #"{"name":"default"}"#)
        mock.stub(.get, "/users/1", with: .status(.notFound))
        #expect(try await send(mock, "/users/1").0.status == .notFound)
        #expect(try await send(mock, "/users/2").0.status == .ok)
    }

    @Test func sequencesAreServedInOrderAndTheLastRepeats() async throws {
        let mock = MockTransport()
        mock.stub(
            .post, "/jobs",
            with: [.status(.serviceUnavailable), .failure(TransportError(.connectionLost)), .status(.created)])
        #expect(try await send(mock, "/jobs", method: .post).0.status == .serviceUnavailable)
        await #expect(throws: TransportError.self) { try await send(mock, "/jobs", method: .post) }
        #expect(try await send(mock, "/jobs", method: .post).0.status == .created)
        #expect(try await send(mock, "/jobs", method: .post).0.status == .created)
        #expect(mock.requests.count == 4)
    }

    @Test func emptySequenceIsAnError() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/empty", with: [])
        await #expect(throws: MockTransportError.noResponses(stub: "GET /empty")) { try await send(mock, "/empty") }
    }

    @Test func closureStubsSeeTheRequestAndMayPass() async throws {
        let mock = MockTransport()
        mock.stub(.post, "/echo", with: .text("fallback"))
        mock.stub { request, body in
            guard request.headerFields[.authorization] == "Bearer t" else { return nil }
            return .data(body, status: .ok, contentType: "text/plain")
        }
        let echoed = HTTPRequest(
            method: .post, url: try #require(URL(string: base + "/echo")),
            headerFields: [.authorization: "Bearer t"])
        let (response, body) = try await mock.send(echoed, body: MessageBody("ping"), deadline: nil)
        #expect(response.headerFields[.contentType] == "text/plain")
        #expect(try await body?.collect(upTo: 100) == Data("ping".utf8))
        #expect(try await send(mock, "/echo", method: .post).1 == "fallback")
    }

    // MARK: Recording

    @Test func recordsEncodedRequestsWithTheirBodies() async throws {
        let mock = MockTransport()
        mock.stub(.post, "/user/register", with: .status(.created))
        let encoded = try RequestDescription(
            route: try #require(URL(string: base + "/user/register?src=test")), method: .post,
            parameters: ["login": "ann", "age": 3] as JSON,
            headers: [.accept: "application/json"]
        ).encoded()
        _ = try await mock.send(encoded.head, body: encoded.body, deadline: nil)
        _ = try await send(mock, "/user/register", method: .post)

        let recorded = mock.requests
        try #require(recorded.count == 2)
        #expect(recorded[0].method == .post)
        #expect(recorded[0].url?.absoluteString == base + "/user/register?src=test")
        #expect(recorded[0].path == "/user/register")
        #expect(recorded[0].queryItems == [URLQueryItem(name: "src", value: "test")])
        #expect(recorded[0].headerFields == [.accept: "application/json", .contentType: "application/json"])
        #expect(recorded[0].bodyText == #"{"age":3,"login":"ann"}"#)
        #expect(recorded[1].body.isEmpty)
    }

    @Test func recordsStreamedBodies() async throws {
        let mock = MockTransport()
        mock.stub(.put, "/upload", with: .status(.ok))
        let chunks = AsyncStream<Data> { continuation in
            for chunk in ["he", "llo ", "", "world"] { continuation.yield(Data(chunk.utf8)) }
            continuation.finish()
        }
        _ = try await send(mock, "/upload", method: .put, body: MessageBody(length: nil, streaming: chunks))
        #expect(mock.requests.map(\.bodyText) == ["hello world"])
    }

    @Test func resetForgetsStubsAndRequests() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/a", with: .status(.ok))
        _ = try await send(mock, "/a")
        mock.reset()
        #expect(mock.requests.isEmpty)
        await #expect(throws: MockTransportError.noStub(method: .get, path: "/a", registeredStubs: [])) {
            try await send(mock, "/a")
        }
    }

    @Test func verifyAllStubsCalledNamesTheUncalledOnes() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/a", with: .status(.ok))
        mock.stub(.get, "/b", query: ["x": "1"], with: .status(.ok))
        mock.stub(.get, "/c", with: .status(.ok))
        _ = try await send(mock, "/a")
        #expect(throws: MockTransportError.stubsNotCalled(["GET /c", "GET /b?x=1"])) { try mock.verifyAllStubsCalled() }
        _ = try await send(mock, "/b?x=1")
        _ = try await send(mock, "/c")
        try mock.verifyAllStubsCalled()
    }

    // MARK: Failures

    @Test func unexpectedRequestNamesMethodPathAndStubs() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/users/:id", with: .status(.ok))
        mock.stub(.post, "/users", query: ["dry": "1"], with: .status(.ok))
        mock.stub { _, _ in nil }
        let error = await #expect(throws: MockTransportError.self) {
            try await send(mock, "/users/2?force=1", method: .delete)
        }
        #expect(
            error
                == .noStub(
                    method: .delete, path: "/users/2?force=1",
                    registeredStubs: ["closure stub #2", "POST /users?dry=1", "GET /users/:id"]))
        #expect(
            error?.description == """
                MockTransport has no stub for DELETE /users/2?force=1. Registered stubs, latest first:
                  - closure stub #2
                  - POST /users?dry=1
                  - GET /users/:id
                """)
        #expect(mock.requests.count == 1)
    }

    @Test func injectedErrorsAreThrown() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/refused", with: .failure(TransportError(.connectionRefused)))
        mock.stub(.get, "/teapot", with: .failure(Teapot()))
        let error = await #expect(throws: TransportError.self) { try await send(mock, "/refused") }
        #expect(error?.kind == .connectionRefused)
        await #expect(throws: Teapot()) { try await send(mock, "/teapot") }
    }

    // MARK: Time

    @Test func delayPastTheDeadlineTimesOutAtTheDeadline() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/slow", with: .text("late").delayed(by: .seconds(60)))
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: TransportError.self) {
            try await send(mock, "/slow", deadline: start.advanced(by: .milliseconds(100)))
        }
        let elapsed = start.duration(to: clock.now)
        #expect(error?.kind == .timedOut)
        #expect(elapsed >= .milliseconds(100))
        #expect(elapsed < .seconds(20))  // far below the 60 s delay, even under ThreadSanitizer
    }

    @Test func delayWithinTheDeadlineAnswers() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/slow", with: .text("late").delayed(by: .milliseconds(50)))
        let clock = ContinuousClock()
        let start = clock.now
        let (_, body) = try await send(mock, "/slow", deadline: start.advanced(by: .seconds(5)))
        #expect(body == "late")
        #expect(start.duration(to: clock.now) >= .milliseconds(50))
    }

    @Test func passedDeadlineTimesOutAtOnce() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/a", with: .status(.ok))
        let error = await #expect(throws: TransportError.self) {
            try await send(mock, "/a", deadline: ContinuousClock.now.advanced(by: .milliseconds(-1)))
        }
        #expect(error?.kind == .timedOut)
    }

    @Test func delayedErrorsWaitTheDelay() async throws {
        let mock = MockTransport()
        mock.stub(
            .get, "/a", with: MockResponse.failure(TransportError(.connectionLost)).delayed(by: .milliseconds(50)))
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: TransportError.self) { try await send(mock, "/a") }
        #expect(error?.kind == .connectionLost)
        #expect(start.duration(to: clock.now) >= .milliseconds(50))
    }

    @Test func cancellationDuringADelayThrowsCancellationError() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/slow", with: .text("late").delayed(by: .seconds(60)))
        let slow = try request(.get, "/slow")
        let task = Task { try await mock.send(slow, body: nil, deadline: nil) }
        while mock.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        let clock = ContinuousClock()
        let start = clock.now
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(start.duration(to: clock.now) < .seconds(20))  // far below the 60 s delay
    }

    // MARK: Fixtures

    @Test func fixturesAreReadFromFiles() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "MockTransportTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("user.json")
        try Data(#"{"name":"Ann"}"#.utf8).write(to: file)

        let mock = MockTransport()
        mock.stub(.get, "/users/1", with: try .fixture(at: file))
        mock.stub(
            .get, "/users/2", with: try .fixture(at: file, status: .accepted, contentType: "application/vnd.user+json"))
        let (response, body) = try await send(mock, "/users/1")
        #expect(response.headerFields[.contentType] == "application/json")
        #expect(body == #"{"name":"Ann"}"#)
        let (custom, _) = try await send(mock, "/users/2")
        #expect(custom.status == .accepted)
        #expect(custom.headerFields[.contentType] == "application/vnd.user+json")

        #expect(throws: MockTransportError.self) {
            try MockResponse.fixture(at: directory.appendingPathComponent("none.json"))
        }
        #expect(throws: MockTransportError.self) { try MockResponse.fixture(named: "none.json", in: .main) }
    }
}
