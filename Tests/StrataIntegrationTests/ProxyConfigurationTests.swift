import HTTPTypes
import Strata
import Testing

@testable import StrataAsyncHTTPClient
@testable import StrataURLSession

/// What the URLSession transport gives `URLSession` on Apple platforms (decided here as
/// there: only whether the platform reads the dictionary differs), and what the
/// AsyncHTTPClient transport refuses before any connection.
@Suite struct ProxyConfigurationTests {
    @Test func httpProxiesPerSchemeAndTheBypassListBecomeCFNetworksDictionary() throws {
        let settings = ProxySettings(
            http: try ProxySettings.Server(url: "http://web-proxy:3128"),
            https: try ProxySettings.Server(url: "http://alice:secret@tls-proxy:3129"),
            bypass: try ProxySettings.Bypass.list("localhost:8080, .internal, 10.0.0.0/8, ::1"))
        let dictionary = try URLSessionProxies(settings, honoursDictionary: true).dictionary
        #expect(dictionary["HTTPEnable"] as? Int == 1)
        #expect(dictionary["HTTPProxy"] as? String == "web-proxy")
        #expect(dictionary["HTTPPort"] as? Int == 3128)
        #expect(dictionary["HTTPSEnable"] as? Int == 1)
        #expect(dictionary["HTTPSProxy"] as? String == "tls-proxy")
        #expect(dictionary["HTTPSPort"] as? Int == 3129)
        #expect(dictionary["SOCKSEnable"] == nil)
        #expect(
            dictionary["ExceptionsList"] as? [String] == [
                "localhost", "*.localhost", "internal", "*.internal", "10.0.0.0/8", "::1",
            ])
        #expect(dictionary.values.allSatisfy { !"\($0)".contains("secret") })
    }

    @Test func oneSOCKS5ProxyCarriesEveryConnection() throws {
        let socks = try ProxySettings.Server(url: "socks5://127.0.0.1:1080")
        let dictionary = try URLSessionProxies(ProxySettings(all: socks), honoursDictionary: true).dictionary
        #expect(dictionary.keys.sorted() == ["SOCKSEnable", "SOCKSPort", "SOCKSProxy"])
        #expect(dictionary["SOCKSProxy"] as? String == "127.0.0.1")
        #expect(
            throws: ProxyConfigurationError(
                .server, transport: "URLSessionTransport",
                reason: "URLSession's SOCKS proxy carries every connection; give 127.0.0.1:1080 for both schemes "
                    + "(ProxySettings(all:))")
        ) { try URLSessionProxies(ProxySettings(http: socks), honoursDictionary: true) }
        #expect(throws: ProxyConfigurationError.self) {
            try URLSessionProxies(
                ProxySettings(all: try ProxySettings.Server(url: "socks5://u:p@127.0.0.1:1080")),
                honoursDictionary: true)
        }
    }

    @Test func aProxysChallengeGetsItsCredentialsAndA407AfterThatNamesTheProxy() throws {
        let settings = ProxySettings(
            all: try ProxySettings.Server(url: "http://alice:secret@proxy.internal:3128"),
            bypass: [try ProxySettings.Bypass("direct.example")])
        let proxies = try URLSessionProxies(settings, honoursDictionary: true)
        #expect(proxies.credentials(forProxyHost: "PROXY.internal", port: 3128)?.password == "secret")
        #expect(proxies.credentials(forProxyHost: "proxy.internal", port: 8080) == nil)
        let response = HTTPResponse(status: .init(code: 407))
        let failure = proxies.failure(
            for: response, to: HTTPRequest(method: .get, scheme: "https", authority: "api.example", path: "/"))
        #expect(failure?.kind == .proxy)
        #expect(
            failure?.detail
                == "HTTP proxy proxy.internal:3128 answered 407 Proxy Authentication Required: "
                + "it refused the credentials of user alice")
        // A 407 from a host reached directly is the origin's answer, passed on as it is.
        #expect(
            proxies.failure(
                for: response, to: HTTPRequest(method: .get, scheme: "https", authority: "direct.example", path: "/"))
                == nil)
    }

    #if WebSocket
        @Test func aWebSocketToAProxiedHostIsRefusedUntilWebSocketsGoThroughProxies() async throws {
            let transport = try AsyncHTTPClientTransport(
                proxy: ProxySettings(all: try ProxySettings.Server(url: "http://127.0.0.1:3128")))
            let request = HTTPRequest(method: .get, scheme: "ws", authority: "chat.example", path: "/socket")
            let error = await #expect(throws: ProxyConfigurationError.self) {
                _ = try await transport.openWebSocket(request, configuration: WebSocketConfiguration(), deadline: nil)
            }
            #expect(error?.setting == .webSocket)
            try await transport.shutdown()
        }
    #endif
}
