import Foundation
import HTTPTypes
import Hummingbird
import Strata
import StrataTestServer
import Testing

/// A session kept in a ``CookieJar`` against real servers, the same on every transport: a
/// log-in sets a session cookie, later calls carry it, a log-out clears it, and a redirect
/// to another origin carries that origin's cookies only. The second origin is the same kind
/// of server reached as `localhost`: cookies are per host, not per port.
@Suite struct CookieIntegrationTests {
    /// `GET /session/login?value=v` sets `session=v` on `/` and `theme=dark` on `/session`;
    /// `GET /session/me` answers the `Cookie` field it got (`none` without one);
    /// `GET /session/logout` deletes `session`.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Sendable static func sessionRoutes(_ router: Router<BasicRequestContext>) {
        router.get("session/login") { request, _ in
            let value = request.uri.queryParameters.get("value") ?? "s-1"
            var headers = HTTPFields()
            headers.append(HTTPField(name: .setCookie, value: "session=\(value); Path=/; HttpOnly"))
            headers.append(HTTPField(name: .setCookie, value: "theme=dark; Path=/session"))
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "welcome")))
        }
        router.get("session/me") { request, _ in
            request.headers[values: .cookie].joined(separator: " | ").isEmpty
                ? "none" : request.headers[values: .cookie].joined(separator: " | ")
        }
        router.get("session/logout") { _, _ in
            Response(status: .ok, headers: [.setCookie: "session=; Max-Age=0; Path=/"])
        }
    }

    static func get(_ networker: Networker, _ url: String) async throws -> String {
        try await networker.send(Endpoint<String>(RequestDescription(route: FixedURLRoute(target: URL(string: url)!))))
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aSessionLogsInIsCarriedStaysWithItsOriginAndLogsOut(_ kind: TransportKind) async throws {
        try await TestServer.with(configure: Self.sessionRoutes) { origin in
            try await TestServer.with(configure: Self.sessionRoutes) { other in
                try await kind.with { transport in
                    let jar = MemoryCookieJar()
                    let networker = Networker(transport: transport, middleware: [CookieMiddleware(jar: jar)])
                    let base = origin.baseURL.absoluteString
                    let elsewhere = "http://localhost:\(other.baseURL.port!)"
                    #expect(try await Self.get(networker, base + "/session/me") == "none")

                    #expect(try await Self.get(networker, base + "/session/login") == "welcome")
                    #expect(try await Self.get(networker, base + "/session/me") == "theme=dark; session=s-1")
                    let outside = try await networker.send(
                        Endpoint(
                            RequestDescription(route: FixedURLRoute(target: URL(string: base + "/echo/x")!)),
                            decoding: EchoReply.self))
                    #expect(outside.headers["cookie"] == "session=s-1")  // theme stays under /session

                    // A redirect to another origin carries none of this origin's cookies…
                    let redirect = base + "/redirect-to?status=302&location=\(elsewhere)/echo/landed"
                    let landed = try await networker.send(
                        Endpoint(
                            RequestDescription(route: FixedURLRoute(target: URL(string: redirect)!)),
                            decoding: EchoReply.self))
                    #expect(landed.path == "/echo/landed")
                    #expect(landed.headers["cookie"] == nil)
                    // … and, once that origin has a session of its own, only that one.
                    #expect(try await Self.get(networker, elsewhere + "/session/login?value=other") == "welcome")
                    let landedAgain = try await networker.send(
                        Endpoint(
                            RequestDescription(route: FixedURLRoute(target: URL(string: redirect)!)),
                            decoding: EchoReply.self))
                    #expect(landedAgain.headers["cookie"] == "session=other")

                    #expect(try await Self.get(networker, base + "/session/logout") == "")
                    #expect(try await Self.get(networker, base + "/session/me") == "theme=dark")
                    #expect(try await Self.get(networker, elsewhere + "/session/me") == "theme=dark; session=other")
                    #expect(
                        Set(jar.allCookies.map { "\($0.domain) \($0.name)" })
                            == ["127.0.0.1 theme", "localhost session", "localhost theme"])

                    jar.removeAll()
                    #expect(try await Self.get(networker, elsewhere + "/session/me") == "none")
                }
            }
        }
    }

    /// Without a jar, no transport keeps cookies by rules of its own (URLSession's
    /// `HTTPCookieStorage` is off in the sessions Strata makes).
    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func withoutAJarNoCookieIsKept(_ kind: TransportKind) async throws {
        try await TestServer.with(configure: Self.sessionRoutes) { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport)
                let base = server.baseURL.absoluteString
                let welcome = try await Self.get(networker, base + "/session/login")
                let me = try await Self.get(networker, base + "/session/me")
                #expect(welcome == "welcome")
                #expect(me == "none")
            }
        }
    }

    /// A request's own `Cookie` field goes first; the jar's pairs follow it in the same field.
    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aRequestsOwnCookieFieldIsKept(_ kind: TransportKind) async throws {
        try await TestServer.with(configure: Self.sessionRoutes) { server in
            try await kind.with { transport in
                let jar = MemoryCookieJar()
                jar.add(Cookie(name: "added", value: "by-app", domain: server.baseURL.host!))
                let networker = Networker(transport: transport, middleware: [CookieMiddleware(jar: jar)])
                let request = RequestDescription(
                    route: FixedURLRoute(target: server.baseURL.appendingPathComponent("session/me")),
                    headers: [.cookie: "own=1"])
                let me = try await networker.send(Endpoint<String>(request))
                #expect(me == "own=1; added=by-app")
            }
        }
    }
}
