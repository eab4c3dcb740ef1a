import Foundation
import HTTPTypes
import Logging
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// A transport that answers by URL from a table of redirects and records every request
/// it receives: method, URL, header fields and body.
final class RedirectingTransport: Transport {
    struct Received: Sendable, Equatable {
        let method: HTTPRequest.Method
        let url: String
        let fields: HTTPFields
        let body: Data?
    }

    /// `url → (status, Location)`; any other URL answers `200` with the body `done`.
    let redirects: [String: (Int, String?)]
    private let log = Locked<[Received]>([])

    init(_ redirects: [String: (Int, String?)]) {
        self.redirects = redirects
    }

    var received: [Received] { log.withLock { $0 } }

    func send(_ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?) async throws -> (
        HTTPResponse, MessageBody?
    ) {
        let url = request.absoluteURLString
        let bytes = try await body?.collect(upTo: 1 << 20)
        log.withLock {
            $0.append(Received(method: request.method, url: url, fields: request.headerFields, body: bytes))
        }
        guard let (status, location) = redirects[url] else {
            return (HTTPResponse(status: .ok), MessageBody("done"))
        }
        var fields = HTTPFields()
        fields[.location] = location
        return (HTTPResponse(status: .init(code: status), headerFields: fields), MessageBody("moved"))
    }
}

@Suite struct RedirectTests {
    static let credentials: HTTPFields = [
        .authorization: "Bearer t0ken", .cookie: "session=1", .proxyAuthorization: "Basic cA==",
    ]

    static func endpoint(
        _ url: String, method: HTTPRequest.Method = .get, body: String? = nil, headers: HTTPFields = [:]
    ) -> Endpoint<String> {
        var description = RequestDescription(route: FixedRoute(url), method: method, headers: headers)
        if let body { description.body = .data(Data(body.utf8), contentType: "text/plain") }
        return Endpoint<String>(description)
    }

    static func networker(
        _ transport: RedirectingTransport, middleware: [any Middleware] = [],
        policy: RedirectPolicy? = RedirectPolicy()
    ) -> Networker {
        var configuration = Networker.Configuration()
        configuration.redirects = policy
        return Networker(transport: transport, middleware: middleware, configuration: configuration)
    }

    static func redirectError(_ error: StrataError) -> RedirectError? { error.underlying as? RedirectError }

    @Test(arguments: [301, 302, 303])
    func seeOtherStyleRedirectsBecomeGETWithoutBody(status: Int) async throws {
        let transport = RedirectingTransport(["http://a.test/form": (status, "/done")])
        let value = try await Self.networker(transport).send(
            Self.endpoint("http://a.test/form", method: .post, body: "k=v"))
        #expect(value == "done")
        let hop = try #require(transport.received.last)
        #expect(transport.received.map(\.url) == ["http://a.test/form", "http://a.test/done"])
        #expect(hop.method == .get)
        #expect(hop.body == nil)
        #expect(hop.fields[.contentType] == nil)
        #expect(transport.received[0].fields[.contentType] == "text/plain")
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func headStaysHead(status: Int) async throws {
        let transport = RedirectingTransport(["http://a.test/x": (status, "http://a.test/y")])
        _ = try await Self.networker(transport).response(
            for: Endpoint<Void>(RequestDescription(route: FixedRoute("http://a.test/x"), method: .head)))
        #expect(transport.received.map(\.method) == [.head, .head])
    }

    @Test(arguments: [307, 308])
    func temporaryAndPermanentRedirectsKeepMethodAndBody(status: Int) async throws {
        let transport = RedirectingTransport(["http://a.test/upload": (status, "/v2/upload")])
        _ = try await Self.networker(transport).send(
            Self.endpoint("http://a.test/upload", method: .put, body: "payload"))
        let hop = try #require(transport.received.last)
        #expect(hop.url == "http://a.test/v2/upload")
        #expect(hop.method == .put)
        #expect(hop.body == Data("payload".utf8))
        #expect(hop.fields[.contentType] == "text/plain")
    }

    @Test func aBodyThatCannotBeResentFailsInsteadOfBeingDropped() async throws {
        let transport = RedirectingTransport(["http://a.test/upload": (307, "/other")])
        let streamed = MessageBody(
            length: 4,
            streaming: AsyncStream {
                $0.yield(Data("data".utf8))
                $0.finish()
            })
        let chain = RedirectMiddleware()
        let error = await #expect(throws: StrataError.self) {
            _ = try await chain.intercept(
                HTTPRequest(method: .post, url: URL(string: "http://a.test/upload")!),
                body: streamed, context: MiddlewareContext()
            ) { request, body, _ in
                try await transport.send(request, body: body, deadline: nil)
            }
        }
        #expect(error?.kind == .redirect)
        #expect(error.flatMap(Self.redirectError)?.kind == .bodyNotReplayable)
        #expect(error?.status?.code == 307)
        #expect(transport.received.count == 1)
    }

    @Test func credentialsNeverReachAnotherOrigin() async throws {
        let transport = RedirectingTransport([
            "http://a.test/start": (302, "/same-origin"),
            "http://a.test/same-origin": (307, "http://b.test:8080/elsewhere"),
            "http://b.test:8080/elsewhere": (302, "http://a.test/back"),
        ])
        // Credentials set on the endpoint, and one a middleware adds on every pass.
        let middleware = HeadersMiddleware([.init("X-Api-Key")!: "k", .authorization: "Bearer from-middleware"])
        _ = try await Self.networker(transport, middleware: [middleware])
            .send(Self.endpoint("http://a.test/start", headers: Self.credentials))
        let received = transport.received
        #expect(
            received.map(\.url) == [
                "http://a.test/start", "http://a.test/same-origin", "http://b.test:8080/elsewhere",
                "http://a.test/back",
            ])
        for same in received.prefix(2) {
            #expect(same.fields[.authorization] == "Bearer t0ken")
            #expect(same.fields[.cookie] == "session=1")
            #expect(same.fields[.proxyAuthorization] == "Basic cA==")
        }
        // Once the chain left its origin, no hop carries credentials, even back at the origin.
        for other in received.suffix(2) {
            #expect(other.fields[.authorization] == nil)
            #expect(other.fields[.cookie] == nil)
            #expect(other.fields[.proxyAuthorization] == nil)
            #expect(other.fields[.init("X-Api-Key")!] == "k")
        }
    }

    @Test(arguments: [
        ("http://a.test/x", "HTTP://A.TEST:80/y", false),
        ("https://a.test/x", "https://a.test:443/y", false),
        ("http://a.test/x", "https://a.test/y", true),
        ("http://a.test/x", "http://a.test:8080/y", true),
        ("http://a.test/x", "http://sub.a.test/y", true),
    ])
    func originIsSchemeHostAndPort(from: String, to: String, crossesOrigin: Bool) async throws {
        let transport = RedirectingTransport([from: (302, to)])
        _ = try await Self.networker(transport).send(Self.endpoint(from, headers: Self.credentials))
        #expect(transport.received.count == 2)
        #expect((transport.received[1].fields[.authorization] == nil) == crossesOrigin)
    }

    @Test func thePolicyCanForwardCredentials() async throws {
        let transport = RedirectingTransport(["http://a.test/x": (302, "http://b.test/y")])
        _ = try await Self.networker(transport, policy: RedirectPolicy(forwardsCredentialsAcrossOrigins: true))
            .send(Self.endpoint("http://a.test/x", headers: Self.credentials))
        #expect(transport.received[1].fields[.authorization] == "Bearer t0ken")
    }

    @Test func httpsToHTTPIsRefusedUnlessAllowed() async throws {
        let transport = RedirectingTransport(["https://a.test/x": (302, "http://a.test/y")])
        let error = await #expect(throws: StrataError.self) {
            _ = try await Self.networker(transport).send(Self.endpoint("https://a.test/x"))
        }
        #expect(error?.kind == .redirect)
        #expect(
            error.flatMap(Self.redirectError)
                == RedirectError(.insecureRedirect, location: "http://a.test/y", redirects: 0))
        #expect(transport.received.count == 1)

        let allowed = try await Self.networker(transport, policy: RedirectPolicy(allowsInsecureRedirects: true))
            .send(Self.endpoint("https://a.test/x"))
        #expect(allowed == "done")
    }

    /// `https://a.test` and `http://a.test` are two origins: a downgrade that the policy
    /// allows still withholds the credentials, as any cross-origin hop does.
    @Test func anAllowedDowngradeOnTheSameHostWithholdsCredentials() async throws {
        let transport = RedirectingTransport(["https://a.test/x": (302, "http://a.test/y")])
        let reply = try await Self.networker(transport, policy: RedirectPolicy(allowsInsecureRedirects: true))
            .send(Self.endpoint("https://a.test/x", headers: Self.credentials))
        #expect(reply == "done")
        #expect(transport.received.map(\.url) == ["https://a.test/x", "http://a.test/y"])
        #expect(transport.received[0].fields[.authorization] == "Bearer t0ken")
        #expect(transport.received[1].fields[.authorization] == nil)
        #expect(transport.received[1].fields[.cookie] == nil)
        #expect(transport.received[1].fields[.proxyAuthorization] == nil)
    }

    static func chain(_ length: Int) -> RedirectingTransport {
        var table: [String: (Int, String?)] = [:]
        for hop in 0..<length { table["http://a.test/\(hop)"] = (302, "/\(hop + 1)") }
        return RedirectingTransport(table)
    }

    @Test func followsUpToTheHopLimit() async throws {
        let ten = Self.chain(10)
        #expect(try await Self.networker(ten).send(Self.endpoint("http://a.test/0")) == "done")
        #expect(ten.received.count == 11)

        let eleven = Self.chain(11)
        let error = await #expect(throws: StrataError.self) {
            _ = try await Self.networker(eleven).send(Self.endpoint("http://a.test/0"))
        }
        #expect(error.flatMap(Self.redirectError) == RedirectError(.tooManyRedirects, location: "/11", redirects: 10))
        #expect(
            error?.description
                == "GET http://a.test/10 → 302 Found: redirect not followed: too many redirects (to /11 after 10 redirects)"
        )
        #expect(eleven.received.count == 11)

        let two = Self.chain(3)
        await #expect(throws: StrataError.self) {
            _ = try await Self.networker(two, policy: RedirectPolicy(maxRedirects: 2)).send(
                Self.endpoint("http://a.test/0"))
        }
        #expect(two.received.count == 3)
    }

    @Test func loopsAreDetected() async throws {
        let transport = RedirectingTransport(["http://a.test/a": (302, "/b"), "http://a.test/b": (302, "/a")])
        let error = await #expect(throws: StrataError.self) {
            _ = try await Self.networker(transport).send(Self.endpoint("http://a.test/a"))
        }
        #expect(error.flatMap(Self.redirectError) == RedirectError(.loop, location: "/a", redirects: 1))
        #expect(transport.received.map(\.url) == ["http://a.test/a", "http://a.test/b"])
    }

    @Test(arguments: ["ftp://a.test/file", "http://", "mailto:someone@a.test", "//:0"])
    func locationsThatAreNotHTTPURLsFail(location: String) async throws {
        let transport = RedirectingTransport(["http://a.test/x": (302, location)])
        let error = await #expect(throws: StrataError.self) {
            _ = try await Self.networker(transport).send(Self.endpoint("http://a.test/x"))
        }
        #expect(error.flatMap(Self.redirectError)?.kind == .invalidLocation)
        #expect(transport.received.count == 1)
    }

    @Test(arguments: [(300, "/y" as String?), (304, "/y"), (302, nil)])
    func otherRedirectsAreReturnedAsTheyAre(status: Int, location: String?) async throws {
        let transport = RedirectingTransport(["http://a.test/x": (status, location)])
        let error = await #expect(throws: StrataError.self) {
            _ = try await Self.networker(transport).send(Self.endpoint("http://a.test/x"))
        }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.status?.code == status)
        #expect(transport.received.count == 1)
    }

    @Test func withoutAPolicyRedirectsAreReturned() async throws {
        let transport = RedirectingTransport(["http://a.test/x": (302, "/y")])
        let error = await #expect(throws: StrataError.self) {
            _ = try await Self.networker(transport, policy: nil).send(Self.endpoint("http://a.test/x"))
        }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.status?.code == 302)
        #expect(transport.received.count == 1)
    }

    @Test func eachHopPassesThroughMiddlewareAndTheLog() async throws {
        let transport = RedirectingTransport([
            "http://a.test/1": (302, "/2"), "http://a.test/2": (308, "http://b.test/3"),
        ])
        let hops = Locked<[String]>([])
        let lines = EventLog()
        var configuration = Networker.Configuration()
        configuration.logger = Logger(label: "test") { _ in CapturingLogHandler(log: lines) }
        let recorder = ContextRecorder { context in
            hops.withLock {
                $0.append(
                    context.redirect.map { "\($0.number) \($0.status.code) \($0.from) left:\($0.hasLeftOrigin)" }
                        ?? "first")
            }
        }
        _ = try await Networker(transport: transport, middleware: [recorder], configuration: configuration)
            .send(Self.endpoint("http://a.test/1"))
        #expect(
            hops.withLock { $0 } == ["first", "1 302 http://a.test/1 left:false", "2 308 http://a.test/2 left:true"])
        let redirectLines = lines.all.filter { $0.hasPrefix("debug redirect ") }
        #expect(redirectLines.count == 2)
        #expect(
            redirectLines.last?.contains(
                "strata.redirect.hop=2 strata.redirect.status=308 strata.redirect.to=http://b.test/3") == true)
    }

    @Test func aRedirectMiddlewareInTheListReplacesTheDefaultOne() async throws {
        let transport = RedirectingTransport(["http://a.test/1": (302, "/2"), "http://a.test/2": (302, "/3")])
        let networker = Self.networker(
            transport, middleware: [RedirectMiddleware(policy: RedirectPolicy(maxRedirects: 1))])
        let error = await #expect(throws: StrataError.self) {
            _ = try await networker.send(Self.endpoint("http://a.test/1"))
        }
        #expect(error.flatMap(Self.redirectError)?.kind == .tooManyRedirects)
        #expect(transport.received.count == 2)
    }
}

/// Calls `record` with the context of every pass.
struct ContextRecorder: Middleware {
    let record: @Sendable (MiddlewareContext) -> Void

    func intercept(
        _ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        record(context)
        return try await next(request, body, context)
    }
}

/// A route to a fixed URL.
struct FixedRoute: URLRouteProvider {
    let string: String
    init(_ string: String) { self.string = string }
    func url() throws -> URL { URL(string: string)! }
}
