import Foundation
import HTTPTypes
import PropertyBased
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// `URL? + String`, ``ServiceRoute`` and query appending, fed random Unicode paths.
@Suite(.runsAlone) struct RoutePropertyTests {
    /// Bases without a query, each with the prefix every joined URL must start with.
    static let bases: [(base: String, prefix: String)] = [
        ("https://x.io", "https://x.io"),
        ("https://x.io/", "https://x.io"),
        ("https://x.io/v1", "https://x.io/v1"),
        ("https://x.io/v1//", "https://x.io/v1"),
        ("http://127.0.0.1:8080/a%20b/", "http://127.0.0.1:8080/a%20b"),
    ]

    @Test func joinedURLIsValidAndKeepsTheBaseAndThePath() async throws {
        await propertyCheck(count: 800, input: Gen.int(in: 0...Self.bases.count - 1), PropertyGen.unicodeString()) {
            pick, path in
            let (baseString, prefix) = Self.bases[pick]
            let base = URL(string: baseString)
            let url: URL
            do {
                url = try base + path
            } catch {
                Issue.record("a valid base and \(path.debugDescription) threw \(error)")
                return
            }
            #expect(url.absoluteString.hasPrefix(prefix))
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
                Issue.record("URLComponents cannot parse \(url.absoluteString)")
                return
            }
            let encodedPath = components.percentEncodedPath
            let encodedQuery = components.percentEncodedQuery
            #expect(PercentText.hasOnlyValidEscapes(encodedPath))
            #expect(PercentText.isEscaped(encodedPath, allowed: .urlPathAllowed))
            #expect(components.fragment == nil)

            let (pathPart, queryPart) = Self.split(path)
            // Leading slashes are dropped: exactly one joins the base and the path.
            let expectedPath = URLPercentEscaping.decodedBytes(pathPart.drop { $0 == "/" })
            #expect(URLPercentEscaping.decodedBytes(encodedPath).hasSuffix(expectedPath))
            if let queryPart, !queryPart.isEmpty {
                let query = try #require(encodedQuery)
                #expect(PercentText.hasOnlyValidEscapes(query))
                #expect(PercentText.isEscaped(query, allowed: .urlQueryAllowed))
                #expect(URLPercentEscaping.decodedBytes(query) == URLPercentEscaping.decodedBytes(queryPart))
            } else {
                #expect(encodedQuery == nil)
            }

            // What the transports send: the request target is the path and the query.
            let request = HTTPRequest(method: .get, url: url)
            let target = (encodedPath.isEmpty ? "/" : encodedPath) + (encodedQuery.map { "?" + $0 } ?? "")
            #expect(request.path == target)
        }
    }

    @Test func queryOnTheBaseComesFirst() async throws {
        let base = URL(string: "https://x.io/v1/?key=k%20v")
        await propertyCheck(count: 400, input: PropertyGen.unicodeString()) { path in
            let url = try base + path
            let query = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
            #expect(query == "key=k%20v" || query.hasPrefix("key=k%20v&"))
            #expect(PercentText.hasOnlyValidEscapes(query))
        }
    }

    @Test func escapingIsIdempotent() async {
        await propertyCheck(count: 800, input: PropertyGen.unicodeString()) { text in
            for allowed in [URLPercentEscaping.pathAllowed, URLPercentEscaping.queryAllowed] {
                let once = URLPercentEscaping.escape(text, allowed: allowed)
                #expect(URLPercentEscaping.escape(once, allowed: allowed) == once)
                #expect(PercentText.hasOnlyValidEscapes(once))
                #expect(once.unicodeScalars.allSatisfy { $0.isASCII })
                #expect(URLPercentEscaping.decodedBytes(once) == URLPercentEscaping.decodedBytes(text))
            }
        }
    }

    @Test func rejoiningAnEscapedPathGivesTheSameURL() async throws {
        let base = URL(string: "https://x.io/v1")
        await propertyCheck(count: 500, input: PropertyGen.unicodeString()) { path in
            let url = try base + path
            let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
            let target =
                String(components.percentEncodedPath.dropFirst("/v1".count))
                + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            #expect(try (base + target) == url)
        }
    }

    @Test func randomBasesThrowOrJoin() async {
        let bases = Generator<String, Shrink.None<String>> { rng in
            let scheme = ["https://", "http://", "", "file://", "x:", "https://[::1]", "//"].randomElement(using: &rng)!
            return scheme + PropertyGen.string(length: 0...10, using: &rng)
        }
        await propertyCheck(count: 800, input: bases, PropertyGen.unicodeString()) { baseString, path in
            do {
                let url = try URL(string: baseString) + path
                #expect(url.scheme != nil)
                #expect(URLComponents(url: url, resolvingAgainstBaseURL: false) != nil)
            } catch {
                #expect(error is URLRouteError)
            }
        }
    }

    @Test func serviceRouteJoinsLikePlus() async throws {
        struct Route: ServiceRoute {
            let path: String
            var baseURL: URL? { URL(string: "https://api.example.com/v1/") }
        }
        await propertyCheck(count: 400, input: PropertyGen.unicodeString()) { path in
            let joined = try URL(string: "https://api.example.com/v1/") + path
            #expect(try Route(path: path).url() == joined)
        }
    }

    @Test func appendedQueryIsValidAndFollowsTheExistingOne() async throws {
        let url = try #require(URL(string: "https://x.io/s?lang=en"))
        await propertyCheck(count: 800, input: PropertyGen.unicodeString()) { query in
            let result = try RequestDescription<URL>.appendingQuery(query, to: url)
            let components = try #require(URLComponents(url: result, resolvingAgainstBaseURL: false))
            let encoded = try #require(components.percentEncodedQuery)
            #expect(components.percentEncodedPath == "/s")
            #expect(PercentText.hasOnlyValidEscapes(encoded))
            #expect(PercentText.isEscaped(encoded, allowed: .urlQueryAllowed))
            if query.isEmpty {
                #expect(encoded == "lang=en")
            } else {
                #expect(encoded.hasPrefix("lang=en&"))
                #expect(
                    URLPercentEscaping.decodedBytes(encoded.dropFirst("lang=en&".count))
                        == URLPercentEscaping.decodedBytes(query))
            }
        }
    }

    /// `path` split at its first `?` byte, as `+` splits it.
    static func split(_ path: String) -> (path: Substring, query: Substring?) {
        guard let mark = path.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (path[...], nil) }
        return (path[..<mark], path[path.utf8.index(after: mark)...])
    }
}
