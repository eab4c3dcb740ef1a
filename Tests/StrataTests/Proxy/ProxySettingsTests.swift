import Strata
import Testing

/// Proxy URLs, `NO_PROXY` entries and the environment, read as curl reads them.
@Suite struct ProxySettingsTests {
    @Test(arguments: [
        ("http://proxy.internal:3128", "http://proxy.internal:3128"),
        ("proxy.internal:3128", "http://proxy.internal:3128"),
        ("proxy.internal", "http://proxy.internal:1080"),
        ("HTTP://Proxy.Internal:8080/", "http://proxy.internal:8080"),
        ("socks5://127.0.0.1:1081", "socks5://127.0.0.1:1081"),
        ("socks5h://[::1]:1081", "socks5://[::1]:1081"),
        ("http://alice:p%40ss%3Aword@10.0.0.1:3128", "http://alice:<redacted>@10.0.0.1:3128"),
        ("  http://bob@proxy:80  ", "http://bob:<redacted>@proxy:80"),
        ("http://u:s\u{654}@\u{654}host:81", "http://u:<redacted>@\u{654}host:81"),
    ])
    func proxyURLsAreReadAsCurlReadsThem(url: String, expected: String) throws {
        #expect(try ProxySettings.Server(url: url).description == expected)
    }

    @Test func credentialsArePercentDecodedAndNeverShown() throws {
        let server = try ProxySettings.Server(url: "http://alice:p%40ss%3Aword@10.0.0.1:3128")
        #expect(server.credentials == ProxySettings.Credentials(username: "alice", password: "p@ss:word"))
        #expect(!ProxySettings(all: server).description.contains("p@ss"))
        #expect(server.endpoint == "10.0.0.1:3128")
    }

    @Test(arguments: [
        (
            "https://proxy:443",
            "invalid proxy server: a `https` proxy scheme is not supported (http, socks5 or socks5h)"
        ),
        (
            "socks4://proxy:1080",
            "invalid proxy server: a `socks4` proxy scheme is not supported (http, socks5 or socks5h)"
        ),
        ("http://proxy:99999", "invalid proxy server: the proxy's port 99999 is not in 1...65535"),
        ("http://proxy:http", "invalid proxy server: the proxy's port is not a number"),
        ("http://", "invalid proxy server: the proxy's host \"\" is not a host name or address"),
        ("http://pro xy:80", "invalid proxy server: the proxy's host \"pro xy\" is not a host name or address"),
        (
            "http://a:%zz@proxy:80",
            "invalid proxy credentials: the proxy URL's user name or password has a bad % escape"
        ),
    ])
    func badProxyURLsAreTypedErrors(url: String, expected: String) {
        #expect(throws: ProxyConfigurationError.self) { try ProxySettings.Server(url: url) }
        do {
            _ = try ProxySettings.Server(url: url)
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test(arguments: [
        ("example.com", "example.com", true), ("example.com", "api.example.com", true),
        ("example.com", "notexample.com", false), (".example.com", "example.com", true),
        ("*.example.com", "a.b.example.com", true), ("EXAMPLE.com", "Example.COM.", true),
        ("localhost:8080", "localhost", true), ("*", "anything.at.all", true),
        ("10.0.0.0/8", "10.200.3.4", true), ("10.0.0.0/8", "11.0.0.1", false),
        ("192.168.1.7", "192.168.1.7", true), ("192.168.1.7", "192.168.1.70", false),
        ("::1", "[::1]", true), ("[::1]:80", "::1", true), ("0.0.0.0/0", "8.8.8.8", true),
    ])
    func bypassEntriesMatchAsNoProxyDoes(entry: String, host: String, matches: Bool) throws {
        #expect(try ProxySettings.Bypass(entry).matches(host: host) == matches)
    }

    @Test func aBypassedHostGoesDirectWhateverItsScheme() throws {
        let proxy = try ProxySettings.Server(url: "http://proxy:3128")
        let settings = ProxySettings(http: proxy, bypass: try ProxySettings.Bypass.list("localhost,, .internal"))
        #expect(settings.server(forScheme: "http", host: "example.com") == proxy)
        #expect(settings.server(forScheme: "WS", host: "example.com") == proxy)
        #expect(settings.server(forScheme: "https", host: "example.com") == nil)  // no https proxy
        #expect(settings.server(forScheme: "http", host: "LOCALHOST") == nil)
        #expect(settings.server(forScheme: "http", host: "db.internal") == nil)
        #expect(settings.bypass.map(\.description) == ["localhost", ".internal"])
    }

    @Test func theEnvironmentIsReadAsCurlReadsIt() throws {
        let environment = [
            "HTTP_PROXY": "http://ignored:1", "http_proxy": "http://web:3128", "HTTPS_PROXY": "http://secure:3129",
            "ALL_PROXY": "socks5://all:1080", "no_proxy": "localhost, 10.0.0.0/8, bad entry", "NO_PROXY": "ignored",
        ]
        let settings = try #require(try ProxySettings.fromEnvironment(environment))
        #expect(settings.http?.description == "http://web:3128")
        #expect(settings.https?.description == "http://secure:3129")
        #expect(settings.bypass.map(\.description) == ["localhost", "10.0.0.0/8"])
    }

    @Test func allProxyFillsTheSchemesWithoutTheirOwnAndUppercaseHTTPProxyIsNotRead() throws {
        let settings = try #require(
            try ProxySettings.fromEnvironment(["HTTP_PROXY": "http://cgi-header:1", "all_proxy": "socks5h://s:1080"]))
        #expect(settings.http?.description == "socks5://s:1080")
        #expect(settings.https?.description == "socks5://s:1080")
        #expect(try ProxySettings.fromEnvironment(["HTTP_PROXY": "http://cgi-header:1", "no_proxy": "*"]) == nil)
        #expect(try ProxySettings.fromEnvironment(["http_proxy": "  "]) == nil)
    }

    @Test func aBadVariableNamesItselfWithoutItsPassword() {
        #expect(
            throws: ProxyConfigurationError(
                .server, reason: "https_proxy: a `ftp` proxy scheme is not supported (http, socks5 or socks5h)")
        ) {
            try ProxySettings.fromEnvironment(["https_proxy": "ftp://u:secret@proxy:21"])
        }
    }
}
