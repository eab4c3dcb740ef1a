import Foundation
import HTTPTypes
import PropertyBased
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// `Cache-Control`, dates, `Age`, `Vary` and URIs are server or caller data: any text
/// is read by the RFC's rules or ignored, never a crash, and the readings are exact.
@Suite(.runsAlone) struct CachePropertyTests {
    static let text = PropertyGen.unicodeString(length: 0...30)

    /// Directive lists built from known names with random case, spacing and quoting,
    /// with the values they must parse to.
    static let directiveLists = Generator<(String, [String: Int]), Shrink.None<(String, [String: Int])>> { rng in
        let names = ["max-age", "s-maxage", "min-fresh", "stale-if-error", "stale-while-revalidate", "max-stale"]
        var expected: [String: Int] = [:]
        var items: [String] = []
        for _ in 0..<Int.random(in: 0...8, using: &rng) {
            let name = names.randomElement(using: &rng)!
            let value = Int.random(in: 0...5_000_000_000, using: &rng)
            let casedName = String(name.map { Bool.random(using: &rng) ? Character($0.uppercased()) : $0 })
            let argument = Bool.random(using: &rng) ? "\"\(value)\"" : "\(value)"
            let pad = [" ", "", "\t", "  "].randomElement(using: &rng)!
            items.append(pad + casedName + "=" + argument + pad)
            if expected[name] == nil { expected[name] = min(value, CacheControl.maxDeltaSeconds) }
            if Bool.random(using: &rng) {
                items.append(["no-store", "Public", "x-ext=\"a,b\"", ""].randomElement(using: &rng)!)
            }
        }
        return (items.joined(separator: ","), expected)
    }

    @Test func anyTextIsReadWithinTheRFCBounds() async {
        await propertyCheck(count: 1500, input: Self.text) { text in
            let directives = CacheControl(parsing: text)
            for value in [
                directives.maxAge, directives.sharedMaxAge, directives.minFresh, directives.staleIfError,
                directives.staleWhileRevalidate,
            ].compactMap({ $0 }) {
                #expect((0...CacheControl.maxDeltaSeconds).contains(value), "\(text.debugDescription)")
            }
            #expect(HTTPDate.parse(text).map { $0.timeIntervalSince1970 >= -62_135_596_800 } ?? true)
            _ = CacheKey(method: "GET", scheme: "https", authority: text.isEmpty ? "h" : text, path: text)
        }
    }

    @Test func generatedDirectivesParseExactly() async {
        await propertyCheck(count: 1500, input: Self.directiveLists) { list in
            let (text, expected) = list
            let directives = CacheControl(parsing: text)
            #expect(directives.maxAge == expected["max-age"], "\(text)")
            #expect(directives.sharedMaxAge == expected["s-maxage"], "\(text)")
            #expect(directives.minFresh == expected["min-fresh"], "\(text)")
            #expect(directives.staleIfError == expected["stale-if-error"], "\(text)")
            #expect(directives.staleWhileRevalidate == expected["stale-while-revalidate"], "\(text)")
            #expect(directives.maxStale == expected["max-stale"], "\(text)")
        }
    }

    /// Random instants from 1970 to 9999, whole seconds.
    static let instants = Gen.int(in: 0...253_402_300_799)

    @Test func datesInEveryFormReadBackExactly() async {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        await propertyCheck(count: 1000, input: Self.instants) { seconds in
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            #expect(HTTPDate.parse(formatter.string(from: date)) == date, "\(formatter.string(from: date))")
            formatter.dateFormat = "EEE MMM d HH:mm:ss yyyy"
            let asctime = formatter.string(from: date).replacingOccurrences(
                of: #" (\d) "#, with: "  $1 ", options: .regularExpression)
            #expect(HTTPDate.parse(asctime) == date, "\(asctime)")
            formatter.dateFormat = "EEEE, dd-MMM-yy HH:mm:ss 'GMT'"
            let year =
                Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "GMT")!, from: date).year ?? 0
            if (1970...2069).contains(year) {
                #expect(HTTPDate.parse(formatter.string(from: date)) == date, "\(formatter.string(from: date))")
            }
        }
    }

    /// Hosts with random case and ports written in equivalent ways share one key.
    @Test func equivalentURIsShareAKey() async {
        let hosts = Generator<(String, Bool, Int), Shrink.None<(String, Bool, Int)>> { rng in
            let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789-.")
            let host = String(
                (0..<Int.random(in: 1...20, using: &rng)).map { _ in letters.randomElement(using: &rng)! })
            return (host, Bool.random(using: &rng), Int.random(in: 1...65535, using: &rng))
        }
        await propertyCheck(count: 1000, input: hosts) { generated in
            let (host, secure, port) = generated
            let scheme = secure ? "https" : "http"
            let path = "/" + "p?q=1"
            let plain = CacheKey(method: "GET", scheme: scheme, authority: host, path: path)
            let shouting = CacheKey(
                method: "GET", scheme: scheme.uppercased(),
                authority: host.uppercased() + ":" + (secure ? "443" : "080"), path: path)
            #expect(plain == shouting, "\(host)")
            let ported = CacheKey(method: "GET", scheme: scheme, authority: "\(host):\(port)", path: path)
            #expect((ported == plain) == (port == (secure ? 443 : 80)), "\(host):\(port)")
            #expect(CacheKey(method: "GET", scheme: scheme, authority: host, path: "/p?q=2") != plain)
        }
    }

    /// Ages and lifetimes from random field values are never negative, and the age grows
    /// with the clock, second for second.
    @Test func agesAndLifetimesFromAnyFields() async {
        let values = Generator<String, Shrink.None<String>> { rng in
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return PropertyGen.string(length: 0...12, using: &rng)
            case 1: return String(Int.random(in: -10...99_999_999_999, using: &rng))
            default:
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "GMT")
                formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
                return formatter.string(
                    from: CacheRulesTests.t0 + TimeInterval(Int.random(in: -100_000...100_000, using: &rng)))
            }
        }
        await propertyCheck(count: 1000, input: values, values, values, Gen.int(in: 0...1_000_000)) {
            age, date, expires, elapsed in
            var fields = HTTPFields()
            fields[.age] = age
            fields[.date] = date
            fields[.expires] = expires
            fields[.lastModified] = date
            let stored = CachedResponse(
                head: HTTPResponse(status: .ok, headerFields: fields), body: Data(),
                requestTime: CacheRulesTests.t0, responseTime: CacheRulesTests.t0 + 1)
            let now = CacheRulesTests.t0 + 1 + TimeInterval(elapsed)
            #expect(stored.freshnessLifetime(heuristic: true) >= 0)
            #expect(stored.currentAge(at: now) >= 0)
            #expect(stored.currentAge(at: now + 10) == stored.currentAge(at: now) + 10)
        }
    }

    /// The key's byte-level authority normalisation reads any authority as the
    /// `String`-level rules it replaced do (kept below as the reference): user info as
    /// is, host lowercased, a numeric port without leading zeros, the scheme's default
    /// port dropped.
    @Test func authoritiesNormaliseAsTheReferenceDoes() async {
        let pieces = [
            "A", "b", "Z", "@", ":", "[", "]", "0", "08", "80", "443", "é", "Ä", "ß", "İ", "-", ".", "::1", "x@y",
        ]
        let authorities = Generator<String, Shrink.None<String>> { rng in
            (0..<Int.random(in: 1...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
        }
        await propertyCheck(count: 2000, input: authorities, Gen.bool) { authority, secure in
            let scheme = secure ? "https" : "http"
            let key = CacheKey(method: "GET", scheme: scheme, authority: authority, path: "/")
            #expect(
                key?.uri == "\(scheme)://\(Self.referenceNormalise(authority: authority, scheme: scheme))/",
                "\(authority)")
        }
    }

    /// The `Character`-level normalisation the byte-level one replaced.
    static func referenceNormalise(authority: String, scheme: String) -> String {
        var userInfo = ""
        var hostPort = Substring(authority)
        if let at = authority.lastIndex(of: "@") {
            userInfo = String(authority[...at])
            hostPort = authority[authority.index(after: at)...]
        }
        var host = hostPort
        var port: Substring?
        let hostEnd = hostPort.hasPrefix("[") ? hostPort.firstIndex(of: "]") : hostPort.startIndex
        if let hostEnd, let colon = hostPort[hostEnd...].lastIndex(of: ":") {
            host = hostPort[..<colon]
            port = hostPort[hostPort.index(after: colon)...]
        }
        var normalisedPort = ""
        if let port, !port.isEmpty {
            let digits = port.drop { $0 == "0" }
            let isNumber = port.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            let number = isNumber ? (digits.isEmpty ? "0" : String(digits)) : String(port)
            let defaultPort = scheme == "http" ? "80" : scheme == "https" ? "443" : nil
            if number != defaultPort { normalisedPort = ":" + number }
        }
        return userInfo + host.lowercased() + normalisedPort
    }
}
