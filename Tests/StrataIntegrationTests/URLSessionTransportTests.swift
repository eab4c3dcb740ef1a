import Foundation
import HTTPTypes
import Hummingbird
import Strata
import StrataTestServer
import StrataTestSupport
import Testing

@testable import StrataURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("URLSessionTransport against the in-process server", .isTimed)
struct URLSessionTransportTests {
    let transport = URLSessionTransport(configuration: .ephemeral)

    // MARK: Foundation's cache

    /// The transport's own session has no `URLCache`, whatever the configuration it was
    /// made from says, and the caller's configuration object is left as it was.
    @Test func itsOwnSessionHasNoFoundationCache() throws {
        let configuration = URLSessionConfiguration.default
        let cache = URLCache.shared
        configuration.urlCache = cache
        configuration.requestCachePolicy = .returnCacheDataElseLoad
        let transport = URLSessionTransport(configuration: configuration)

        #expect(transport.session.configuration.urlCache == nil)
        #expect(transport.session.configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
        #expect(configuration.urlCache === cache)
        #expect(configuration.requestCachePolicy == .returnCacheDataElseLoad)
    }

    /// A `max-age` response asked for twice reaches the server twice: nothing below
    /// Strata answers from a cache (that is `CacheMiddleware`'s job), even when the
    /// configuration came with one that prefers cached data.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func aFreshResponseIsFetchedAgain() async throws {
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = URLCache.shared
        configuration.requestCachePolicy = .returnCacheDataElseLoad
        let transport = URLSessionTransport(configuration: configuration)
        let routes = CacheRoutes()
        try await TestServer.with(configure: { routes.register(on: $0) }) { server in
            var bodies: [String] = []
            for _ in 0..<2 {
                let request = try Self.request(.get, server, "/cache/fresh?cc=max-age%3D600")
                let (response, body) = try await transport.send(request, body: nil, deadline: nil)
                #expect(response.status == .ok)
                bodies.append(String(decoding: try await body?.collect(upTo: 1024) ?? Data(), as: UTF8.self))
            }
            #expect(bodies == ["fresh #1", "fresh #2"])
            #expect(routes.hits("fresh") == 2)
        }
    }

    // MARK: Requests and bodies

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func getEchoesPathQueryAndHeaders() async throws {
        try await TestServer.with { server in
            var request = try Self.request(.get, server, "/echo/items/42?page=2&sort=name%20asc")
            request.headerFields[.accept] = "application/json"
            request.headerFields[try #require(HTTPField.Name("X-Strata-Test"))] = "value 1"
            let (response, body) = try await transport.send(request, body: nil, deadline: nil)

            #expect(response.status == .ok)
            #expect(response.headerFields[.contentType] == "application/json")
            let reply = try await Self.decodeEcho(body)
            #expect(reply.method == "GET")
            #expect(reply.path == "/echo/items/42")
            #expect(reply.query == "page=2&sort=name%20asc")
            #expect(reply.headers["accept"] == "application/json")
            #expect(reply.headers["x-strata-test"] == "value 1")
            #expect(reply.body == "")
        }
    }

    @Test(arguments: [HTTPRequest.Method.post, .put, .patch, .delete])
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func inMemoryBodyIsSentByteForByte(method: HTTPRequest.Method) async throws {
        try await TestServer.with { server in
            var request = try Self.request(method, server, "/echo/upload")
            request.headerFields[.contentType] = "application/octet-stream"
            let bytes = Self.pattern(count: 70_000)
            let (response, body) = try await transport.send(request, body: MessageBody(bytes), deadline: nil)

            #expect(response.status == .ok)
            let reply = try await Self.decodeEcho(body)
            #expect(reply.method == method.rawValue)
            #expect(reply.path == "/echo/upload")
            #expect(reply.headers["content-type"] == "application/octet-stream")
            #expect(reply.headers["content-length"] == "70000")
            #expect(reply.bodyData == bytes)
        }
    }

    @Test(arguments: [HTTPRequest.Method.post, .put, .patch, .delete])
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func streamedBodyIsCollectedAndSentByteForByte(method: HTTPRequest.Method) async throws {
        try await TestServer.with { server in
            let request = try Self.request(method, server, "/echo/stream")
            let chunks = [Data("first,".utf8), Self.pattern(count: 5000), Data(), Data("last".utf8)]
            let expected = chunks.reduce(into: Data()) { $0.append($1) }
            let body = MessageBody(length: nil) {
                AsyncStream<Data> { continuation in
                    for chunk in chunks { continuation.yield(chunk) }
                    continuation.finish()
                }
            }
            let (_, responseBody) = try await transport.send(request, body: body, deadline: nil)

            let reply = try await Self.decodeEcho(responseBody)
            #expect(reply.method == method.rawValue)
            #expect(reply.headers["content-length"] == "\(expected.count)")
            #expect(reply.bodyData == expected)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func emptyPostBodyIsSentWithZeroLength() async throws {
        try await TestServer.with { server in
            let request = try Self.request(.post, server, "/echo/empty")
            let (_, body) = try await transport.send(request, body: MessageBody(Data()), deadline: nil)
            let reply = try await Self.decodeEcho(body)
            #expect(reply.method == "POST")
            #expect(reply.body == "")
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func getWithABodyIsRefusedAndAnEmptyOneDropped() async throws {
        try await TestServer.with { server in
            let request = try Self.request(.get, server, "/echo/get")
            let error = try await #require(throws: TransportError.self) {
                try await transport.send(request, body: MessageBody("payload"), deadline: nil)
            }
            #expect(error.kind == .invalidRequest)
            #expect(error.underlying as? URLSessionTransportError == .bodyNotAllowed(method: "GET"))

            let (response, body) = try await transport.send(request, body: MessageBody(Data()), deadline: nil)
            #expect(response.status == .ok)
            #expect(try await Self.decodeEcho(body).body == "")
        }
    }

    @Test func streamedBodyOverTheLimitIsRejectedBeforeSending() async throws {
        let small = URLSessionTransport(configuration: .ephemeral, streamedBodyLimit: 10)
        let request = HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1:9", path: "/")
        let body = MessageBody(length: nil) {
            AsyncStream<Data> {
                $0.yield(Data(count: 11))
                $0.finish()
            }
        }
        let error = try await #require(throws: TransportError.self) {
            try await small.send(request, body: body, deadline: nil)
        }
        #expect(error.kind == .invalidRequest)
        #expect(error.underlying as? MessageBodyError == .tooLarge(limit: 10))
    }

    @Test func requestWithoutAuthorityIsInvalid() async throws {
        let request = HTTPRequest(method: .get, scheme: "http", authority: nil, path: "/echo")
        let error = try await #require(throws: TransportError.self) {
            try await transport.send(request, body: nil, deadline: nil)
        }
        #expect(error.kind == .invalidRequest)
        #expect(error.underlying as? URLSessionTransportError == .noAbsoluteURL)
    }

    // MARK: Responses

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func bytesArriveExactly() async throws {
        try await TestServer.with { server in
            let request = try Self.request(.get, server, "/bytes/1000")
            let (response, body) = try await transport.send(request, body: nil, deadline: nil)
            #expect(response.status == .ok)
            #expect(response.headerFields[.contentType] == "application/octet-stream")
            #expect(body?.length == 1000)
            #expect(body?.bufferedData == nil)
            let data = try await body?.collect(upTo: 1000)
            #expect(data == Data((0..<1000).map { UInt8(truncatingIfNeeded: $0) }))
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func chunkedResponseStreamsWhole() async throws {
        try await TestServer.with { server in
            let request = try Self.request(.get, server, "/stream/3")
            let (_, body) = try await transport.send(request, body: nil, deadline: nil)
            #expect(body?.isReplayable == false)
            #expect(body?.length == nil)
            let data = try await body?.collect(upTo: 3072)
            #expect(
                data == Data(repeating: 0, count: 1024) + Data(repeating: 1, count: 1024)
                    + Data(repeating: 2, count: 1024))
        }
    }

    /// A borrowed session's own delegate decides redirects: `.shared` has none, so
    /// `URLSession` follows them, and the body arrives buffered.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func borrowedSessionFollowsRedirectsItself() async throws {
        try await TestServer.with { server in
            let request = try Self.request(.get, server, "/redirect")
            let (response, body) = try await URLSessionTransport(session: .shared).send(
                request, body: nil, deadline: nil)
            #expect(response.status == .ok)
            let data = try #require(body?.bufferedData)
            let user = try JSONDecoder().decode(Fixtures.UserBody.self, from: data)
            #expect(user.name == "User 1")
            #expect(user.photos.map(\.id) == ["1-1", "1-2"])
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func headResponseHasNoBody() async throws {
        try await TestServer.with { server in
            let request = try Self.request(.head, server, "/json/user/7")
            let (response, body) = try await transport.send(request, body: nil, deadline: nil)
            #expect(response.status == .ok)
            #expect(response.headerFields[.contentType] == "application/json")
            #expect(body == nil)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func noContentHasNoBody() async throws {
        try await TestServer.with { server in
            let request = try Self.request(.get, server, "/status/204")
            let (response, body) = try await transport.send(request, body: nil, deadline: nil)
            #expect(response.status == .noContent)
            #expect(body == nil)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func errorStatusIsAResponseNotAnError() async throws {
        try await TestServer.with { server in
            let request = try Self.request(.get, server, "/status/503")
            let (response, body) = try await transport.send(request, body: nil, deadline: nil)
            #expect(response.status.code == 503)
            #expect(try await body?.collect(upTo: 100) == Data("status 503".utf8))
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func borrowedSessionWorks() async throws {
        try await TestServer.with { server in
            let shared = URLSessionTransport(session: .shared)
            let request = try Self.request(.get, server, "/echo/shared")
            let (response, body) = try await shared.send(request, body: nil, deadline: nil)
            #expect(response.status == .ok)
            #expect(try await Self.decodeEcho(body).path == "/echo/shared")
        }
    }

    // MARK: Authentication challenges

    @Test(arguments: [HTTPRequest.Method.get, .post])
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func challengedUnauthorizedIsReturnedPromptly(method: HTTPRequest.Method) async throws {
        try await TestServer.with(configure: addProtectedRoutes) { server in
            let request = try Self.request(method, server, "/protected")
            let body = method == .post ? MessageBody("payload") : nil
            let start = ContinuousClock.now
            let (response, responseBody) = try await transport.send(request, body: body, deadline: start + .seconds(10))

            #expect(ContinuousClock.now - start < .seconds(5))
            #expect(response.status == .unauthorized)
            #expect(response.headerFields[.wwwAuthenticate] == #"Basic realm="strata""#)
            #expect(try await responseBody?.collect(upTo: 100) == Data(Self.challengeBody.utf8))
            #expect(transport.owner.delegate?.registeredCount == 0)

            // The session still works after the cancelled challenge.
            let (next, _) = try await transport.send(
                try Self.request(.get, server, "/echo/after"), body: nil, deadline: nil)
            #expect(next.status == .ok)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func sessionBorrowedFromATransportReturnsTheChallengedResponse() async throws {
        try await TestServer.with(configure: addProtectedRoutes) { server in
            let borrowing = URLSessionTransport(session: transport.session)
            let request = try Self.request(.get, server, "/protected")
            let start = ContinuousClock.now
            let (response, _) = try await borrowing.send(request, body: nil, deadline: start + .seconds(10))
            #expect(ContinuousClock.now - start < .seconds(5))
            #expect(response.status == .unauthorized)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func networkerThrowsUnacceptableStatusForAChallenge() async throws {
        try await TestServer.with(configure: addProtectedRoutes) { server in
            let networker = Networker(transport: transport)
            var endpoint = Endpoint<String>(
                RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: "/protected")))
            endpoint.timeout = .seconds(10)
            let start = ContinuousClock.now
            let error = await #expect(throws: StrataError.self) { try await networker.send(endpoint) }

            #expect(ContinuousClock.now - start < .seconds(5))
            #expect(error?.kind == .unacceptableStatus)
            #expect(error?.status?.code == 401)
            #expect(error?.response?.headerFields[.wwwAuthenticate] == #"Basic realm="strata""#)
        }
    }

    // MARK: Deadlines, cancellation, failures

    /// Over the transport's own session (its delegate streams the body) and over a borrowed
    /// session without that delegate (the whole response through a completion handler).
    @Test(arguments: [false, true])
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func hangingServerTimesOutAtTheDeadline(borrowingASession: Bool) async throws {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let transport = borrowingASession ? URLSessionTransport(session: session) : transport
        try await TestServer.with { server in
            let request = try Self.request(.get, server, "/hang")
            let start = ContinuousClock.now
            let error = try await #require(throws: TransportError.self) {
                try await transport.send(request, body: nil, deadline: start + .milliseconds(300))
            }
            let elapsed = ContinuousClock.now - start
            #expect(error.kind == .timedOut)
            #expect(error.detail == "the deadline passed before the response head arrived")
            #expect(elapsed >= .milliseconds(250))
            // The transport's own alarm, not URLSession's timeout (rounded up to a whole
            // second: the call would take 1 s without the alarm).
            #expect(elapsed < .milliseconds(900))
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func stalledBodyTimesOutAtTheDeadline() async throws {
        try await TestServer.with { server in
            let request = try Self.request(.get, server, "/stall-body")
            let start = ContinuousClock.now
            // The head arrives; the body's first chunk too, then the stall times out. A whole
            // second for the head (URLSession's own timeout is in whole seconds anyway): on a
            // loaded machine 400 ms did not always see the head arrive.
            let (response, body) = try await transport.send(request, body: nil, deadline: start + .seconds(1))
            #expect(response.status == .ok)
            var iterator = try #require(body).makeAsyncIterator()
            #expect(try await iterator.next() == Data("first".utf8))
            let error = try await #require(throws: TransportError.self) { _ = try await iterator.next() }
            #expect(error.kind == .timedOut)
            // FoundationNetworking's message for the code is Foundation's generic one, which
            // the detail leaves out; Apple's URLSession may give a message of its own.
            expectOnLinux("URLSession's own timeout as FoundationNetworking words it") {
                #expect(error.detail == "URLError -1001 timedOut")
            }
            #expect(ContinuousClock.now - start < .seconds(3))  // whole seconds, as above
        }
    }

    @Test func passedDeadlineFailsWithoutSending() async throws {
        let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:9", path: "/")
        let error = try await #require(throws: TransportError.self) {
            try await transport.send(request, body: nil, deadline: .now - .milliseconds(1))
        }
        #expect(error.kind == .timedOut)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func requestWithinTheDeadlineDoesNotWaitForIt() async throws {
        try await TestServer.with { server in
            let request = try Self.request(.get, server, "/echo/quick")
            let start = ContinuousClock.now
            let (response, _) = try await transport.send(request, body: nil, deadline: start + .seconds(30))
            #expect(response.status == .ok)
            #expect(ContinuousClock.now - start < .seconds(5))
        }
    }

    @Test(arguments: [nil, Duration.seconds(30)])
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func cancellingTheCallerCancelsTheRequest(deadlineAfter: Duration?) async throws {
        try await TestServer.with { server in
            let request = try Self.request(.get, server, "/hang")
            let transport = transport
            let deadline = deadlineAfter.map { ContinuousClock.now + $0 }
            let call = Task { try await transport.send(request, body: nil, deadline: deadline) }
            try await Task.sleep(for: .milliseconds(300))
            let cancelledAt = ContinuousClock.now
            call.cancel()
            let result = await call.result
            // As for AsyncHTTPClient: "at once" on a loaded machine.
            #expect(ContinuousClock.now - cancelledAt < .seconds(3))
            #expect(throws: CancellationError.self) { try result.get() }
        }
    }

    @Test func closedPortIsConnectionRefused() async throws {
        let closed = try ClosedPort()
        let url = try #require(URL(string: "http://\(closed.authority)/echo/nobody"))
        let error = try await #require(throws: TransportError.self) {
            try await transport.send(HTTPRequest(method: .get, url: url), body: nil, deadline: nil)
        }
        #expect(error.kind == .connectionRefused)
        #expect((error.underlying as? URLError)?.code == .cannotConnectToHost)
        withExtendedLifetime(closed) {}  // refusing until here
    }

    @Test func urlErrorCodesMapToKinds() {
        let cases: [(URLError.Code, TransportError.Kind)] = [
            (.cannotConnectToHost, .connectionRefused), (.timedOut, .timedOut),
            (.networkConnectionLost, .connectionLost), (.cannotFindHost, .hostNotFound),
            (.dnsLookupFailed, .hostNotFound), (.secureConnectionFailed, .tls),
            (.serverCertificateUntrusted, .tls), (.serverCertificateHasBadDate, .tls),
            (.badURL, .invalidRequest), (.unsupportedURL, .invalidRequest),
            (.badServerResponse, .malformedResponse), (.cannotParseResponse, .malformedResponse),
            (.cannotDecodeContentData, .malformedResponse), (.cannotDecodeRawData, .malformedResponse),
            (.notConnectedToInternet, .other),
        ]
        for (code, kind) in cases {
            #expect(URLErrorMapping.kind(of: code) == kind, "\(code)")
        }
    }

    @Test func urlErrorArrivingAsNSErrorIsClassified() {
        let error = NSError(domain: NSURLErrorDomain, code: URLError.Code.networkConnectionLost.rawValue)
        let mapped = URLErrorMapping.map(error)
        #expect(mapped.kind == .connectionLost)
        #expect((mapped.underlying as? URLError)?.code == .networkConnectionLost)
        #expect(mapped.detail?.hasPrefix("URLError -1005 networkConnectionLost") == true)
    }

    /// `FoundationNetworking` reports most libcurl failures as `URLError.unknown` with
    /// curl's message: the message decides the kind there.
    @Test func curlMessagesDecideTheKind() {
        let cases: [(String, TransportError.Kind?)] = [
            ("transfer closed with 90 bytes remaining to read", .connectionLost),
            ("transfer closed with outstanding read data remaining", .connectionLost),
            ("Recv failure: Connection reset by peer", .connectionLost),
            ("Empty reply from server", .connectionLost),
            ("Received HTTP/0.9 when not allowed", .malformedResponse),
            ("Unsupported response code in HTTP response", .malformedResponse),
            ("Failed writing header", .malformedResponse),
            ("Invalid Content-Length: value", .malformedResponse),
            ("Illegal or missing hexadecimal sequence in chunked-encoding", .malformedResponse),
            ("Too long hexadecimal number in chunked-encoding", .malformedResponse),
            ("Unsupported HTTP version in response", .malformedResponse),
            ("Error while processing content unencoding: invalid block type", .malformedResponse),
            ("SSL certificate problem: self-signed certificate", .tls),
            ("unsupported URL", nil),
            ("cancelled", nil),
        ]
        for (message, kind) in cases {
            #expect(CurlMessages.kind(ofMessage: message) == kind, "\(message)")
        }
    }

    // MARK: Helpers

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func request(_ method: HTTPRequest.Method, _ server: TestServer, _ pathAndQuery: String) throws
        -> HTTPRequest
    {
        try request(method, server.baseURL, pathAndQuery)
    }

    static func request(_ method: HTTPRequest.Method, _ baseURL: URL, _ pathAndQuery: String) throws -> HTTPRequest {
        let url = try #require(URL(string: baseURL.absoluteString + pathAndQuery))
        return HTTPRequest(method: method, url: url)
    }

    /// The echo reply in `body`, streamed or buffered.
    static func decodeEcho(_ body: MessageBody?) async throws -> EchoReply {
        let data = try #require(try await body?.collect(upTo: 1 << 24))
        return try JSONDecoder().decode(EchoReply.self, from: data)
    }

    /// The body of the `401` that `/protected` answers.
    static let challengeBody = "sign in first"

    static func pattern(count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
    }
}

/// `GET` and `POST /protected`: `401` with `WWW-Authenticate: Basic realm="strata"` and
/// the body ``URLSessionTransportTests/challengeBody``.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
private func addProtectedRoutes(_ router: Router<BasicRequestContext>) {
    let unauthorized: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
        var request = request
        _ = try await request.collectBody(upTo: 1 << 20)
        return Response(
            status: .unauthorized,
            headers: [.wwwAuthenticate: #"Basic realm="strata""#, .contentType: "text/plain"],
            body: .init(byteBuffer: ByteBuffer(string: URLSessionTransportTests.challengeBody)))
    }
    router.get("protected", use: unauthorized)
    router.post("protected", use: unauthorized)
}
