import Foundation
import HTTPTypes
import PropertyBased
import StrataTestSupport
import StrataTesting
import Testing

@testable import Strata
@testable import StrataCore

/// A `String` used as a route, fed random strings: it is a URL, or it throws
/// ``URLRouteError/invalidURL(base:path:)`` (``StrataError/Kind/invalidURL`` when sent);
/// it never traps, whatever Foundation would do with the string.
@Suite(.runsAlone) struct StringRoutePropertyTests {
    /// Random strings, bare or behind a scheme, a scheme and host, or `scheme:`.
    static let routes = Generator<String, Shrink.None<String>> { rng in
        let tail = PropertyGen.string(length: 0...24, using: &rng)
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return tail
        case 1: return "https://" + tail
        case 2: return "http://api.example.com" + tail
        case 3: return "https://api.example.com/" + tail
        case 4: return PropertyGen.string(length: 0...4, using: &rng) + "://" + tail
        default: return "http:" + tail
        }
    }

    @Test func randomStringsAreAURLOrAnInvalidURLError() async throws {
        await propertyCheck(count: 1500, input: Self.routes) { route in
            let request = RequestDescription(route: route, parameters: ["q": "a b"])
            do {
                let url = try route.url()
                #expect(url.scheme?.isEmpty == false)
                let encoded = try request.encoded()
                #expect(encoded.head.scheme?.isEmpty == false)
            } catch let error as URLRouteError {
                #expect(error == .invalidURL(base: route, path: ""))
            }
        }
    }

    @Test func randomStringsSentThroughTheClientNeverTrap() async throws {
        let mock = MockTransport()
        mock.stub { _, _ in .status(.ok) }
        let networker = Networker(transport: mock)
        await propertyCheck(count: 400, input: Self.routes) { route in
            do {
                try await networker.send(
                    Endpoint<Void>(
                        RequestDescription(
                            route: route, method: .post,
                            parameters: ["name": "Ann", "age": 31])))
            } catch {
                let error = error as? StrataError
                #expect(error?.kind == .invalidURL)
                #expect(error?.underlying as? URLRouteError == .invalidURL(base: route, path: ""))
            }
        }
    }
}
