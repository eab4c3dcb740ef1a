import Foundation
import StrataTesting
import Testing

@testable import Strata
@testable import StrataCore

/// URLs whose scheme `URL` reads as `""` (`:a`): `HTTPRequest(url:)` traps on them, so
/// every route and the encoder refuse them with ``URLRouteError/invalidURL(base:path:)``.
/// Found by `StringServiceRoutePropertyTests` (the client trapped on a base of `":"`).
@Suite struct HTTPRequestableURLTests {
    @Test func anEmptySchemeIsNotRequestable() throws {
        let url = try #require(URL(string: ":a"))
        #expect(url.scheme == "")
        #expect(!url.isHTTPRequestable)
        #expect(try #require(URL(string: "x:a")).isHTTPRequestable)
        #expect(try #require(URL(string: "https://x.io/a")).isHTTPRequestable)
    }

    @Test func joiningOntoAnEmptySchemeThrows() {
        #expect(throws: URLRouteError.invalidURL(base: ":", path: "a")) { try URL(string: ":") + "a" }
    }

    @Test func everyRouteKindRefusesIt() async throws {
        struct Service: ServiceRoute {
            var baseURL: URL? { URL(string: ":") }
            var path: String { "/a" }
        }
        struct Seed: StringServiceRoute {
            let baseUrl = ":"
            let path = "/a"
        }
        let url = try #require(URL(string: ":a"))
        #expect(throws: URLRouteError.invalidURL(base: ":a", path: "")) { try RequestDescription(route: url).encoded() }
        #expect(throws: URLRouteError.invalidURL(base: ":a", path: "")) { try ":a".url() }
        #expect(throws: URLRouteError.invalidURL(base: ":", path: "/a")) { try Service().url() }
        #expect(throws: URLRouteError.invalidURL(base: ":", path: "/a")) { try Seed().url() }

        let mock = MockTransport()
        let networker = Networker(transport: mock)
        let error = await #expect(throws: StrataError.self) { try await networker.send(RequestDescription(route: url)) }
        #expect(error?.kind == .invalidURL)
        #expect(error?.underlying as? URLRouteError == .invalidURL(base: ":a", path: ""))
        #expect(mock.requests.isEmpty)
    }
}
