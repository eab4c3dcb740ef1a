import Foundation
import HTTPTypes
import PropertyBased
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// The request target Strata slices from a URL's string is the one `HTTPRequest(url:)`
/// builds through `URLComponents`, for random URLs of every part (user information, IPv6
/// hosts, ports, escapes, queries, fragments), except where that one is wrong (a `/` before
/// a bare query; the `:` of an empty port after an IPv6 host).
@Suite(.runsAlone) struct RequestTargetPropertyTests {
    static let urls = Generator<String, Shrink.None<String>> { rng in
        func piece(_ length: ClosedRange<Int>) -> String { PropertyGen.string(length: length, using: &rng) }
        let scheme = ["http", "https", "HTTP", "wss", "x-y"].randomElement(using: &rng) ?? "http"
        let user =
            Bool.random(using: &rng) ? piece(0...6) + (Bool.random(using: &rng) ? ":" + piece(0...4) : "") + "@" : ""
        let host =
            ["api.example.com", "[::1]", "127.0.0.1", "Ex-Ample.ORG", "%41b", piece(1...8)].randomElement(using: &rng)
            ?? "h"
        let port = Bool.random(using: &rng) ? ":" + String(Int.random(in: 0...70000, using: &rng)) : ""
        let path = Bool.random(using: &rng) ? "/" + piece(0...16) : piece(0...6)
        let query = Bool.random(using: &rng) ? "?" + piece(0...12) : ""
        let fragment = Bool.random(using: &rng) ? "#" + piece(0...6) : ""
        return scheme + "://" + user + host + port + path + query + fragment
    }

    @Test func targetsMatchHTTPRequestFromURL() async throws {
        await propertyCheck(count: 3000, input: Self.urls) { string in
            guard let url = URL(string: string) else { return }
            // Where `HTTPRequest(url:)` would trap, only Strata's path runs.
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
                components.string != nil, components.rangeOfScheme != nil
            else {
                _ = HTTPRequest(method: .get, resolving: url, headerFields: [:])
                return
            }
            let ours = HTTPRequest(method: .get, resolving: url, headerFields: [:])
            let theirs = HTTPRequest(method: .get, url: url, headerFields: [:])
            #expect(ours.scheme == theirs.scheme, "\(string)")
            if components.percentEncodedHost?.isEmpty == false {
                // `HTTPRequest(url:)` keeps the `:` of an empty port after an IPv6 host
                // (`[::1]:`); an empty port is no port (RFC 3986 §6.2.3), as Strata has it.
                let expected = theirs.authority.map { $0.hasSuffix(":") ? String($0.dropLast()) : $0 }
                #expect(ours.authority == expected, "\(string)")
            }
            if components.percentEncodedPath.isEmpty, components.percentEncodedQuery != nil {
                #expect(ours.path == "/?" + (components.percentEncodedQuery ?? ""), "\(string)")
            } else {
                #expect(ours.path == theirs.path, "\(string)")
            }
        }
    }

    @Test func exactTargets() throws {
        func target(_ string: String) throws -> [String?] {
            let request = HTTPRequest(method: .get, resolving: try #require(URL(string: string)), headerFields: [:])
            return [request.scheme, request.authority, request.path]
        }
        #expect(
            try target("https://user:pw@api.example.com:8443/a/b?q=1#frag") == [
                "https", "api.example.com:8443", "/a/b?q=1",
            ])
        #expect(try target("http://[::1]:8080") == ["http", "[::1]:8080", "/"])
        #expect(try target("http://[::1]:/p") == ["http", "[::1]", "/p"])
        #expect(try target("http://host:/p") == ["http", "host", "/p"])
        #expect(try target("http://host?q=1") == ["http", "host", "/?q=1"])
        #expect(try target("http://host#f") == ["http", "host", "/"])
        #expect(try target("HTTP://Host/%41?%20") == ["HTTP", "Host", "/%41?%20"])
    }
}
