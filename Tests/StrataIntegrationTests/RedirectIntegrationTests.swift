import Foundation
import HTTPTypes
import Strata
import StrataTestServer
import Testing

/// Redirects followed by Strata's ``RedirectMiddleware`` against real servers: the same
/// rules on every transport, credentials withheld from another origin (a second server
/// on another port).
@Suite struct RedirectIntegrationTests {
    /// Every transport leaves redirects to Strata, so its policy applies to all.
    static let transports = TransportKind.allCases

    /// `origin`'s `/redirect-to` answering `status` with `location`.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func redirect(_ origin: TestServer, status: Int, to location: String) -> FixedURLRoute {
        var components = URLComponents(
            url: origin.baseURL.appendingPathComponent("redirect-to"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "status", value: "\(status)"), URLQueryItem(name: "location", value: location),
        ]
        return FixedURLRoute(target: components.url!)
    }

    static let credentials: HTTPFields = [
        .authorization: "Bearer s3cret", .cookie: "session=abc", .proxyAuthorization: "Basic cA==",
    ]

    @Test(arguments: transports)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func credentialsStayWithTheirOrigin(_ kind: TransportKind) async throws {
        try await TestServer.with { origin in
            try await TestServer.with { other in
                try await kind.with { transport in
                    let networker = Networker(transport: transport)
                    for status in [301, 302, 303, 307, 308] {
                        let cross = Self.redirect(
                            origin, status: status, to: other.baseURL.absoluteString + "/echo/landed")
                        let echo = try await networker.send(
                            Endpoint(
                                RequestDescription(route: cross, headers: Self.credentials), decoding: EchoReply.self))
                        #expect(echo.path == "/echo/landed", "\(status)")
                        #expect(echo.headers["authorization"] == nil, "\(status)")
                        #expect(echo.headers["cookie"] == nil, "\(status)")
                        #expect(echo.headers["proxy-authorization"] == nil, "\(status)")

                        let same = Self.redirect(origin, status: status, to: "/echo/here")
                        let sameEcho = try await networker.send(
                            Endpoint(
                                RequestDescription(route: same, headers: Self.credentials), decoding: EchoReply.self))
                        #expect(sameEcho.headers["authorization"] == "Bearer s3cret", "\(status)")
                        #expect(sameEcho.headers["cookie"] == "session=abc", "\(status)")
                    }
                }
            }
        }
    }

    @Test(arguments: transports)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func methodAndBodyRules(_ kind: TransportKind) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport)
                for (status, keeps) in [(301, false), (302, false), (303, false), (307, true), (308, true)] {
                    var request = RequestDescription(
                        route: Self.redirect(server, status: status, to: "/echo/target"), method: .post)
                    request.body = .data(Data("payload".utf8), contentType: "text/plain")
                    let echo = try await networker.send(Endpoint(request, decoding: EchoReply.self))
                    #expect(echo.method == (keeps ? "POST" : "GET"), "\(status)")
                    #expect(echo.bodyData == (keeps ? Data("payload".utf8) : Data()), "\(status)")
                    #expect(echo.headers["content-type"] == (keeps ? "text/plain" : nil), "\(status)")
                }
            }
        }
    }

    @Test(arguments: transports)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func loopsAndLongChainsFailWithTheHopCount(_ kind: TransportKind) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport)
                // `/loop` redirects to itself: the second visit is a loop.
                let error = await #expect(throws: StrataError.self) {
                    _ = try await networker.send(
                        Endpoint<Data>(RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: "/loop"))))
                }
                #expect(error?.kind == .redirect)
                #expect((error?.underlying as? RedirectError)?.kind == .loop)

                // Eleven redirects in a row: one too many.
                var target = server.baseURL.absoluteString + "/echo/end"
                for _ in 0..<11 { target = Self.redirect(server, status: 302, to: target).target.absoluteString }
                let chain = await #expect(throws: StrataError.self) {
                    _ = try await networker.send(
                        Endpoint<Data>(RequestDescription(route: FixedURLRoute(target: URL(string: target)!))))
                }
                #expect((chain?.underlying as? RedirectError)?.kind == .tooManyRedirects)
                #expect((chain?.underlying as? RedirectError)?.redirects == 10)
            }
        }
    }
}
