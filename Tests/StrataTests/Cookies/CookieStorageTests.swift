import Foundation
import Testing

@testable import Strata
@testable import StrataCore

/// The storage model (RFC 6265bis §5.7) and what a request carries (§5.8.3): the RFC's own
/// examples first, then the rules one by one.
@Suite struct CookieStorageTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func url(_ text: String) -> URL { URL(string: text)! }

    /// The `Cookie` field a request to `url` carries after `fields` came from `origin`.
    static func header(_ fields: [String], from origin: String, to url: String, at now: Date = now) -> String? {
        var storage = CookieStorage()
        for field in fields { storage.receive(field, from: Self.url(origin), at: Self.now) }
        return CookieStorage.headerValue(for: storage.cookies(for: Self.url(url), at: now))
    }

    // MARK: RFC 6265 §3.1's examples

    @Test func theRFCsExamples() {
        // A host-only session cookie.
        #expect(
            Self.header(["SID=31d4d96e407aad42"], from: "https://example.com/", to: "https://example.com/")
                == "SID=31d4d96e407aad42")
        #expect(
            Self.header(["SID=31d4d96e407aad42"], from: "https://example.com/", to: "https://www.example.com/") == nil)
        // Domain=example.com: the subdomains get it too.
        #expect(
            Self.header(
                ["SID=31d4d96e407aad42; Path=/; Domain=example.com"], from: "https://example.com/",
                to: "https://www.example.com/") == "SID=31d4d96e407aad42")
        // Two cookies, one Secure and HttpOnly.
        let two = ["SID=31d4d96e407aad42; Path=/; Secure; HttpOnly", "lang=en-US; Path=/; Domain=example.com"]
        #expect(
            Self.header(two, from: "https://example.com/", to: "https://example.com/")
                == "SID=31d4d96e407aad42; lang=en-US")
        #expect(Self.header(two, from: "https://example.com/", to: "http://example.com/") == "lang=en-US")
        // An expiry in the past deletes the cookie.
        #expect(
            Self.header(
                ["lang=en-US; Expires=Wed, 09 Jun 2100 10:18:14 GMT", "lang=; Expires=Sun, 06 Nov 1994 08:49:37 GMT"],
                from: "https://example.com/", to: "https://example.com/") == nil)
    }

    // MARK: Expiry

    @Test func maxAgeWinsOverExpiresAndBothAreCappedAt400Days() throws {
        var storage = CookieStorage()
        let origin = Self.url("https://example.com/")
        storage.receive("a=1; Expires=Sun, 06 Nov 1994 08:49:37 GMT; Max-Age=60", from: origin, at: Self.now)
        storage.receive("b=2; Max-Age=99999999999", from: origin, at: Self.now)
        storage.receive("c=3; Expires=Fri, 31 Dec 9999 23:59:59 GMT", from: origin, at: Self.now)
        storage.receive("d=4", from: origin, at: Self.now)
        let byName = Dictionary(uniqueKeysWithValues: storage.cookies.map { ($0.name, $0) })
        #expect(byName["a"]?.expires == Self.now.addingTimeInterval(60))
        #expect(byName["b"]?.expires == Self.now.addingTimeInterval(CookieStorage.maxLifetime))
        #expect(byName["c"]?.expires == Self.now.addingTimeInterval(CookieStorage.maxLifetime))
        #expect(byName["d"]?.expires == nil)  // a session cookie
        #expect(storage.cookies(for: origin, at: Self.now.addingTimeInterval(61)).map(\.name) == ["b", "c", "d"])
        #expect(storage.cookies.map(\.name) == ["b", "c", "d"])  // the expired one is gone
    }

    @Test func maxAgeZeroOrLessDeletes() {
        #expect(Self.header(["a=1", "a=; Max-Age=0"], from: "http://example.com/", to: "http://example.com/") == nil)
        #expect(Self.header(["a=1", "a=; Max-Age=-5"], from: "http://example.com/", to: "http://example.com/") == nil)
    }

    // MARK: Domain

    @Test(arguments: [
        // Domain attribute, request host, stored, then hosts that get it
        ("example.com", "www.example.com", true),
        ("www.example.com", "www.example.com", true),
        ("other.com", "www.example.com", false),  // not the host's domain
        ("ample.com", "www.example.com", false),  // a suffix, not a domain
        ("com", "www.example.com", false),  // a public suffix
        ("sub.www.example.com", "www.example.com", false),  // a subdomain of the host
    ])
    func domainAttributes(domain: String, host: String, stored: Bool) {
        var storage = CookieStorage()
        storage.receive("a=1; Domain=\(domain)", from: Self.url("http://\(host)/"), at: Self.now)
        #expect(storage.cookies.count == (stored ? 1 : 0))
    }

    @Test func aSingleLabelHostMaySetADomainCookieOnlyForItself() throws {
        var storage = CookieStorage()
        storage.receive("a=1; Domain=localhost", from: Self.url("http://localhost:8080/"), at: Self.now)
        let cookie = try #require(storage.cookies.first)
        #expect(cookie.domain == "localhost")
        #expect(cookie.isHostOnly)
    }

    @Test func hostOnlyAndDomainCookiesMatchTheirHosts() {
        let fields = ["host=1", "domain=2; Domain=example.com"]
        #expect(Self.header(fields, from: "http://example.com/", to: "http://example.com/") == "host=1; domain=2")
        #expect(Self.header(fields, from: "http://example.com/", to: "http://a.b.example.com/") == "domain=2")
        #expect(Self.header(fields, from: "http://example.com/", to: "http://notexample.com/") == nil)
        #expect(Self.header(fields, from: "http://EXAMPLE.com./", to: "http://example.COM/") == "host=1; domain=2")
    }

    @Test func addressesMatchOnlyThemselves() {
        #expect(Self.header(["a=1"], from: "http://127.0.0.1:8080/", to: "http://127.0.0.1:9090/") == "a=1")
        #expect(Self.header(["a=1"], from: "http://127.0.0.1/", to: "http://127.0.0.2/") == nil)
        #expect(Self.header(["a=1"], from: "http://[::1]:8080/", to: "http://[::1]/") == "a=1")
    }

    // MARK: Path

    @Test(arguments: [
        // request path of the Set-Cookie, the default path
        ("/", "/"), ("", "/"), ("/docs", "/"), ("/docs/", "/docs"), ("/docs/guide", "/docs"), ("/a/b/c", "/a/b"),
    ])
    func defaultPaths(requestPath: String, path: String) {
        #expect(CookieStorage.defaultPath(of: Self.url("http://example.com\(requestPath)")) == path)
    }

    @Test(arguments: [
        ("/docs", "/docs", true), ("/docs/", "/docs", true), ("/docs/web", "/docs", true), ("/docsets", "/docs", false),
        ("/", "/docs", false), ("/docs/web", "/docs/", true), ("/anything", "/", true), ("/Docs", "/docs", false),
    ])
    func pathMatching(requestPath: String, cookiePath: String, matches: Bool) {
        #expect(CookieStorage.pathMatches(requestPath, cookiePath) == matches)
    }

    @Test func longerPathsGoFirstThenTheEarlierCreated() {
        var storage = CookieStorage()
        let origin = Self.url("http://example.com/")
        storage.receive("root=1; Path=/", from: origin, at: Self.now)
        storage.receive("deep=2; Path=/a/b", from: origin, at: Self.now)
        storage.receive("mid=3; Path=/a", from: origin, at: Self.now)
        storage.receive("root2=4; Path=/", from: origin, at: Self.now.addingTimeInterval(1))
        #expect(
            CookieStorage.headerValue(for: storage.cookies(for: Self.url("http://example.com/a/b/c"), at: Self.now))
                == "deep=2; mid=3; root=1; root2=4")
    }

    // MARK: Secure and prefixes

    @Test func onlyASecureOriginSetsSecureCookiesAndAnInsecureOneCannotShadowThem() {
        var storage = CookieStorage()
        storage.receive("a=1; Secure", from: Self.url("http://example.com/"), at: Self.now)
        #expect(storage.cookies.isEmpty)
        storage.receive("a=1; Secure", from: Self.url("https://example.com/"), at: Self.now)
        storage.receive("a=2", from: Self.url("http://example.com/"), at: Self.now)  // refused
        #expect(storage.cookies.map(\.value) == ["1"])
        storage.receive("a=3", from: Self.url("https://example.com/"), at: Self.now)  // a secure origin may
        #expect(storage.cookies.map(\.value) == ["3"])
        #expect(storage.cookies.map(\.isSecure) == [false])
    }

    @Test(arguments: [
        ("__Secure-a=1; Secure", "https://example.com/", true),
        ("__Secure-a=1", "https://example.com/", false),
        ("__secure-a=1", "https://example.com/", false),  // case-insensitive
        ("__Host-a=1; Secure; Path=/", "https://example.com/", true),
        ("__Host-a=1; Secure; Path=/; Domain=example.com", "https://example.com/", false),
        ("__Host-a=1; Secure", "https://example.com/docs/x", false),  // the default path is not /
        ("__Host-a=1; Path=/", "https://example.com/", false),
        ("__Host-a=1; Secure; Path=/", "http://example.com/", false),
        ("=__Host-a=1; Secure; Path=/", "https://example.com/", false),  // nameless, smuggled in the value
    ])
    func prefixes(field: String, origin: String, stored: Bool) {
        var storage = CookieStorage()
        storage.receive(field, from: Self.url(origin), at: Self.now)
        #expect(storage.cookies.count == (stored ? 1 : 0))
    }

    // MARK: Replacing, app changes, eviction

    @Test func aNewerCookieReplacesTheSameNameDomainAndPathAndKeepsItsCreationTime() throws {
        var storage = CookieStorage()
        let origin = Self.url("http://example.com/")
        storage.receive("a=1", from: origin, at: Self.now)
        storage.receive("a=2; HttpOnly", from: origin, at: Self.now.addingTimeInterval(10))
        storage.receive("a=3; Path=/other", from: origin, at: Self.now.addingTimeInterval(20))
        #expect(storage.cookies.map(\.value) == ["2", "3"])
        let replaced = try #require(storage.cookies.first)
        #expect(replaced.created == Self.now)
        #expect(replaced.isHTTPOnly)
    }

    @Test func evictionKeepsTheLimitsDroppingTheLeastRecentlyUsed() {
        var storage = CookieStorage(limits: .init(perDomain: 3, total: 4))
        let a = Self.url("http://a.example/")
        for index in 0..<3 { storage.receive("a\(index)=1", from: a, at: Self.now.addingTimeInterval(Double(index))) }
        _ = storage.cookies(for: a, at: Self.now.addingTimeInterval(10))  // all used at 10
        storage.receive("a3=1", from: a, at: Self.now.addingTimeInterval(11))  // over 3 for a.example
        #expect(storage.cookies.count == 3)
        #expect(storage.cookies.contains { $0.name == "a3" })
        let b = Self.url("http://b.example/")
        storage.receive("b0=1", from: b, at: Self.now.addingTimeInterval(12))
        storage.receive("b1=1", from: b, at: Self.now.addingTimeInterval(13))  // over 4 in all
        #expect(storage.cookies.count == 4)
        #expect(storage.cookies.map(\.name).suffix(2) == ["b0", "b1"])
    }

    @Test func anAppAddsListsAndRemovesCookiesAndTheyRoundTripThroughCodable() throws {
        var storage = CookieStorage()
        storage.add(Cookie(name: "token", value: "t", domain: "API.example.com", created: Self.now), at: Self.now)
        storage.receive("lang=en", from: Self.url("https://api.example.com/"), at: Self.now)
        let data = try JSONEncoder().encode(storage.cookies)
        var restored = CookieStorage()
        for cookie in try JSONDecoder().decode([Cookie].self, from: data) { restored.add(cookie, at: Self.now) }
        #expect(restored.cookies == storage.cookies)
        #expect(
            CookieStorage.headerValue(for: restored.cookies(for: Self.url("https://api.example.com/x"), at: Self.now))
                == "token=t; lang=en")
        restored.removeAll { $0.name == "token" }
        #expect(restored.cookies.map(\.name) == ["lang"])
    }

    @Test func aCookiesDescriptionNeverShowsItsValue() {
        let cookie = Cookie(name: "session", value: "s3cr3t", domain: "example.com", isSecure: true)
        #expect(!cookie.description.contains("s3cr3t"))
        #expect(cookie.description.contains("session"))
    }
}
