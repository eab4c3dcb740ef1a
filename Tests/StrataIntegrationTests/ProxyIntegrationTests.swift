import Foundation
import Hummingbird
import Logging
import Strata
import StrataAsyncHTTPClient
import StrataServerLifecycle
import StrataTestCertificates
import StrataTestServer
import StrataTestSupport
import StrataTesting
import StrataURLSession
import Testing

/// Requests through real proxies on 127.0.0.1 — tinyproxy (HTTP, `BasicAuth`) and
/// microsocks (SOCKS5) — whose logs prove what went through them.
@Suite(.enabled(if: ProxyServer.available, "tinyproxy and microsocks are not installed (.ci/run installs them)"))
struct ProxyIntegrationTests {
    static let user = (name: "alice", password: "pa55-w0rd")

    static func settings(_ proxy: ProxyServer, password: String = user.password, bypass: [String] = []) throws
        -> ProxySettings
    {
        ProxySettings(
            all: try ProxySettings.Server(
                .http, host: "127.0.0.1", port: proxy.port,
                credentials: ProxySettings.Credentials(username: user.name, password: password)),
            bypass: try bypass.map { entry throws(ProxyConfigurationError) in try ProxySettings.Bypass(entry) })
    }

    /// An `EchoReply` for `url`, over `transport`.
    static func echo(_ url: String, over transport: any Transport) async throws -> EchoReply {
        try await Networker(transport: transport).send(
            Endpoint(RequestDescription(route: FixedURLRoute(target: URL(string: url)!)), decoding: EchoReply.self))
    }

    static func withTransport<T>(_ settings: ProxySettings, _ body: (AsyncHTTPClientTransport) async throws -> T)
        async throws -> T
    {
        try await AsyncHTTPClientTransport(proxy: settings).shuttingDown(after: body)
    }

    @Test @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func anHTTPProxyCarriesTheRequestAndItsCredentialsReachOnlyTheProxy() async throws {
        try await TestServer.with { origin in
            try await ProxyServer.with(.tinyproxy, user: Self.user) { proxy in
                let port = origin.baseURL.port!
                let reply = try await Self.withTransport(try Self.settings(proxy)) { transport in
                    try await Self.echo("http://127.0.0.1:\(port)/echo/through", over: transport)
                }
                #expect(reply.path == "/echo/through")
                #expect(reply.headers["proxy-authorization"] == nil)
                #expect(reply.headers["authorization"] == nil)
                #expect(proxy.requests == ["CONNECT 127.0.0.1:\(port) HTTP/1.1"])
            }
        }
    }

    /// An `https` origin through the tunnel: TLS runs end to end, trusted as the transport's
    /// `ServerTrust` says, and the proxy sees only the `CONNECT`.
    @Test @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func anHTTPSOriginIsReachedThroughTheTunnelWithTheTransportsTrust() async throws {
        let authority = try TestCertificateAuthority(commonName: "Proxy Test CA")
        let router = Router()
        router.get("hello") { _, _ in "hello through the tunnel" }
        var logger = Logger(label: "tls-origin")
        logger.logLevel = .critical
        let origin = try await InProcessServer.start(
            router: router, serverName: "tls", logger: logger,
            tlsConfiguration: try authority.issue().serverTLSConfiguration())
        do {
            try await ProxyServer.with(.tinyproxy, user: Self.user) { proxy in
                let transport = try AsyncHTTPClientTransport(
                    trust: ServerTrust(default: TrustPolicy(roots: .only([authority.root.certificate]))),
                    proxy: try Self.settings(proxy))
                let body = try await transport.shuttingDown { transport in
                    try await Networker(transport: transport).send(
                        Endpoint<String>(
                            RequestDescription(route: URL(string: "https://localhost:\(origin.port)/hello")!)))
                }
                #expect(body == "hello through the tunnel")
                #expect(proxy.requests == ["CONNECT localhost:\(origin.port) HTTP/1.1"])
            }
        } catch {
            await origin.shutdown()
            throw error
        }
        await origin.shutdown()
    }

    /// The proxy's password is the transport's: no step of the client sees it, so no log
    /// line, curl command or HAR entry can show it, redacted or not.
    @Test @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func theProxysPasswordReachesNoLogCurlCommandOrHAR() async throws {
        try await TestServer.with { origin in
            try await ProxyServer.with(.tinyproxy, user: Self.user) { proxy in
                let log = EventLog()
                let recorder = HARRecorder()
                let logger = Logger(label: "proxy") { _ in CapturingLogHandler(log: log) }
                try await Self.withTransport(try Self.settings(proxy)) { transport in
                    let networker = Networker(
                        transport: HARRecordingTransport(wrapping: transport, into: recorder),
                        middleware: [LoggingMiddleware(logger: logger, logsCurlCommands: true)])
                    let url = URL(string: "http://127.0.0.1:\(origin.baseURL.port!)/echo/logged")!
                    _ = try await networker.send(
                        Endpoint(RequestDescription(route: FixedURLRoute(target: url)), decoding: EchoReply.self))
                }
                let har = String(decoding: try JSONEncoder().encode(recorder.har), as: UTF8.self)
                #expect(log.all.count >= 2)
                #expect(
                    recorder.har.log.entries.map(\.request.url) == [
                        "http://127.0.0.1:\(origin.baseURL.port!)/echo/logged"
                    ])
                #expect(!(log.all + [har]).contains { $0.contains(Self.user.password) })
            }
        }
    }

    /// tinyproxy answers a `CONNECT` with wrong credentials `401` (a plain request `407`), and
    /// AsyncHTTPClient reports any answer but `200` and `407` to its `CONNECT` without the
    /// status: the failure names the proxy and the tunnel it refused.
    @Test @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aWrongProxyPasswordIsAProxyFailureNamingTheProxyNotTheOrigin() async throws {
        try await TestServer.with { origin in
            try await ProxyServer.with(.tinyproxy, user: Self.user) { proxy in
                let port = origin.baseURL.port!
                let error = await #expect(throws: StrataError.self) {
                    try await Self.withTransport(try Self.settings(proxy, password: "wrong-secret")) { transport in
                        try await Self.echo("http://127.0.0.1:\(port)/echo/refused", over: transport)
                    }
                }
                let failure = error?.transportError
                #expect(failure?.kind == .proxy)
                #expect(
                    failure?.detail
                        == "HTTP proxy 127.0.0.1:\(proxy.port) refused to open a tunnel to 127.0.0.1:\(port)")
                #expect(error.map { String(describing: $0).contains("wrong-secret") } == false)
                #expect(proxy.requests == ["CONNECT 127.0.0.1:\(port) HTTP/1.1"])
            }
        }
    }

    /// A proxy that answers `407 Proxy Authentication Required`, as the RFC has it.
    @Test func aProxyThatAsksForCredentialsIsAProxyFailureSaying407() async throws {
        let reply = RawReplyServer.http(
            "HTTP/1.1 407 Proxy Authentication Required\nProxy-Authenticate: Basic realm=\"p\"\nContent-Length: 0\n\n")
        try await RawReplyServer.with(reply: reply) { proxy in
            let port = proxy.baseURL.port!
            for credentials in [nil, ProxySettings.Credentials(username: "carol", password: "not-this")] {
                let settings = ProxySettings(
                    all: try ProxySettings.Server(.http, host: "127.0.0.1", port: port, credentials: credentials))
                let error = await #expect(throws: StrataError.self) {
                    try await Self.withTransport(settings) { transport in
                        try await Self.echo("https://origin.example/echo", over: transport)
                    }
                }
                #expect(error?.transportError?.kind == .proxy)
                #expect(
                    error?.transportError?.detail
                        == "HTTP proxy 127.0.0.1:\(port) answered 407 Proxy Authentication Required: "
                        + (credentials == nil ? "it asks for credentials" : "it refused the credentials of user carol"))
            }
        }
    }

    @Test @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func noProxyHostsFromTheEnvironmentGoDirect() async throws {
        try await TestServer.with { origin in
            try await ProxyServer.with(.tinyproxy, user: Self.user) { proxy in
                let port = origin.baseURL.port!
                let settings = try #require(
                    try ProxySettings.fromEnvironment([
                        "http_proxy": "http://alice:pa55-w0rd@127.0.0.1:\(proxy.port)",
                        "NO_PROXY": "example.com, localhost",
                    ]))
                let paths = try await Self.withTransport(settings) { transport in
                    [
                        try await Self.echo("http://localhost:\(port)/echo/direct", over: transport).path,
                        try await Self.echo("http://127.0.0.1:\(port)/echo/proxied", over: transport).path,
                    ]
                }
                #expect(paths == ["/echo/direct", "/echo/proxied"])
                #expect(proxy.requests == ["CONNECT 127.0.0.1:\(port) HTTP/1.1"])  // localhost never reached it
            }
        }
    }

    @Test @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aSOCKS5ProxyConnectsToTheOriginByName() async throws {
        try await TestServer.with { origin in
            try await ProxyServer.with(.microsocks) { proxy in
                let port = origin.baseURL.port!
                let settings = ProxySettings(all: try ProxySettings.Server(url: "socks5h://127.0.0.1:\(proxy.port)"))
                let reply = try await Self.withTransport(settings) { transport in
                    try await Self.echo("http://localhost:\(port)/echo/socks", over: transport)
                }
                #expect(reply.path == "/echo/socks")
                #expect(proxy.requests == ["localhost:\(port)"])
            }
        }
    }

    @Test func aProxyThatIsNotListeningIsARefusedConnectionNamingTheProxy() async throws {
        let closed = try ClosedPort()
        let settings = ProxySettings(all: try ProxySettings.Server(.http, host: "127.0.0.1", port: closed.port))
        let error = await #expect(throws: StrataError.self) {
            try await Self.withTransport(settings) { transport in
                try await Self.echo("http://example.invalid/echo", over: transport)
            }
        }
        #expect(error?.transportError?.kind == .connectionRefused)
        #expect(
            error?.transportError?.detail?.hasPrefix("HTTP proxy 127.0.0.1:\(closed.port): connection refused") == true)
    }

    /// What the Linux refusal of `URLSessionTransport(proxy:)` documents: libcurl follows the
    /// process environment's `http_proxy` on its own, whatever Strata is told (a child
    /// process, so that the variable reaches no other test).
    @Test(.enabled(if: Platform.isLinuxFoundation && ChildProcess.testBinary != nil))
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func urlSessionOnLinuxFollowsTheEnvironmentsProxyOnItsOwn() async throws {
        try await TestServer.with { origin in
            try await ProxyServer.with(.tinyproxy) { proxy in
                let url = "http://127.0.0.1:\(origin.baseURL.port!)/echo/environment"
                let process = ChildProcess.make(
                    executable: try #require(ChildProcess.testBinary), filter: "EnvironmentProxyChildTests",
                    environment: [
                        "http_proxy": "http://127.0.0.1:\(proxy.port)", EnvironmentProxyChildTests.urlVariable: url,
                    ])
                try await ChildProcess.run(process, timeout: .seconds(60))
                #expect(process.terminationStatus == 0)
                #expect(proxy.requests == ["GET \(url) HTTP/1.1"])
            }
        }
    }

    @Test func socks5CredentialsAreRefusedByAsyncHTTPClientWhenTheTransportIsMade() throws {
        let settings = ProxySettings(all: try ProxySettings.Server(url: "socks5://bob:hunter2@127.0.0.1:1080"))
        #expect(
            throws: ProxyConfigurationError(
                .credentials, transport: "AsyncHTTPClientTransport",
                reason: "AsyncHTTPClient's SOCKS5 client has no username/password authentication (127.0.0.1:1080); "
                    + "use an HTTP proxy, or a SOCKS5 proxy that needs none")
        ) {
            _ = try AsyncHTTPClientTransport(proxy: settings)
        }
    }

    @Test func urlSessionOnLinuxRefusesAProxyItWouldIgnore() throws {
        let settings = ProxySettings(all: try ProxySettings.Server(url: "http://127.0.0.1:3128"))
        let made = Result { try URLSessionTransport(proxy: settings) }
        guard Platform.isLinuxFoundation else {
            #expect((try? made.get()) != nil)
            return
        }
        #expect(throws: ProxyConfigurationError.self) { try made.get() }
        #expect(
            (made.failure as? ProxyConfigurationError)?.description
                == "URLSessionTransport cannot apply proxy server: FoundationNetworking on Linux ignores "
                + "connectionProxyDictionary (libcurl reads only the process environment's http_proxy, "
                + "HTTPS_PROXY, ALL_PROXY and NO_PROXY); use AsyncHTTPClientTransport for a proxy on Linux")
        // Settings that name no proxy are nothing to refuse.
        #expect((try? URLSessionTransport(proxy: ProxySettings())) != nil)
    }
}

/// The child side of ``ProxyIntegrationTests/urlSessionOnLinuxFollowsTheEnvironmentsProxyOnItsOwn()``;
/// skipped anywhere else.
@Suite struct EnvironmentProxyChildTests {
    static let urlVariable = "STRATA_PROXY_CHILD_URL"

    @Test(.enabled(if: ProcessInfo.processInfo.environment[urlVariable] != nil))
    func aPlainURLSessionTransportSends() async throws {
        let url = try #require(ProcessInfo.processInfo.environment[Self.urlVariable])
        let reply = try await ProxyIntegrationTests.echo(url, over: URLSessionTransport())
        #expect(reply.path == "/echo/environment")
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
