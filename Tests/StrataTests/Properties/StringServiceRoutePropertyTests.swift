import Foundation
import PropertyBased
import StrataTestSupport
import StrataTesting
import Testing

@testable import Strata
@testable import StrataCore

/// ``StringServiceRoute`` (seed 004's `Endpoint` shape) fed random base and path strings:
/// `url()` is a URL or exactly ``URLRouteError/invalidURL(base:path:)`` with the strings
/// as written, `buildURL()` is that URL's string whenever there is one, and nothing traps.
@Suite(.runsAlone) struct StringServiceRoutePropertyTests {
    struct Route: StringServiceRoute {
        let baseUrl: String
        let path: String
    }

    /// Random bases: bare, behind a scheme, a scheme and host, `scheme:`, or the empty
    /// scheme of `:` (which `URL.scheme` reads as `""` and `HTTPRequest(url:)` traps on).
    static let bases = Generator<String, Shrink.None<String>> { rng in
        let prefix =
            ["https://", "http://api.example.com", "http://127.0.0.1:8080/v1/", "", "x:", ":", "//", "https://[::1]"]
            .randomElement(using: &rng) ?? ""
        return prefix + PropertyGen.string(length: 0...10, using: &rng)
    }

    @Test func randomBasesAndPathsGiveAURLOrAnInvalidURLError() async {
        await propertyCheck(count: 1200, input: Self.bases, PropertyGen.unicodeString()) { base, path in
            let route = Route(baseUrl: base, path: path)
            do {
                let url = try route.url()
                #expect(url.scheme?.isEmpty == false)
                #expect(try url == URL(string: base) + path)
                #expect(route.buildURL() == url.absoluteString)
            } catch let error as URLRouteError {
                #expect(error == .invalidURL(base: base, path: path))
                // Scalar by scalar: a combining mark after the joining slash merges with it.
                let rest = path.drop { $0 == "/" }.unicodeScalars
                #expect(route.buildURL().unicodeScalars.reversed().starts(with: rest.reversed()))
            }
        }
    }

    @Test func validBasesJoinLikePlus() async throws {
        await propertyCheck(count: 600, input: PropertyGen.unicodeString()) { path in
            let route = Route(baseUrl: "https://api.example.com/v1/", path: path)
            let joined = try URL(string: "https://api.example.com/v1/") + path
            #expect(try route.url() == joined)
            #expect(route.buildURL() == joined.absoluteString)
        }
    }

    @Test func randomRoutesSentThroughTheClientNeverTrap() async throws {
        let mock = MockTransport()
        mock.stub { _, _ in .status(.ok) }
        let networker = Networker(transport: mock)
        await propertyCheck(count: 400, input: Self.bases, PropertyGen.unicodeString()) { base, path in
            let route = Route(baseUrl: base, path: path)
            do {
                try await networker.send(RequestDescription(route: route, method: .post, parameters: ["name": "Ann"]))
                #expect(try route.url().scheme == mock.requests.last?.head.scheme)
                #expect(mock.requests.last?.bodyText == #"{"name":"Ann"}"#)
            } catch {
                let error = error as? StrataError
                #expect(error?.kind == .invalidURL)
                #expect(error?.underlying as? URLRouteError == .invalidURL(base: base, path: path))
            }
        }
    }
}
