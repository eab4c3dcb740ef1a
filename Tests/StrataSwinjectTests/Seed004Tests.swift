import Foundation
import Strata
import StrataTestServer
import Swinject
import Testing

/// Seed 004's two halves meet: its `Endpoint` protocol (string base URL declared once,
/// `path` per case, `buildURL()`) routes requests of a client resolved from a Swinject
/// container, against a real server on 127.0.0.1. In this module `Endpoint` is the seed's
/// protocol; Strata's type is reached as `Strata.Endpoint`.
@Suite struct Seed004Tests {
    /// Runs `body` with a client resolved from the app's container and the seed's base URL
    /// pointing at a fresh server.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func withResolvedClient(_ body: (Networker, URL) async throws -> Void) async throws {
        try await TestServer.with { server in
            let networker = try #require(makeAppContainer().resolve(Networker.self))
            try await SeedAPI.$baseUrl.withValue(server.baseURL.absoluteString) {
                try await body(networker, server.baseURL)
            }
        }
    }

    @Test func aSeedRouteIsSentWithoutNamingEndpoint() async throws {
        try await withResolvedClient { networker, _ in
            let user = try await networker.send(RequestDescription(route: UserEndpoint.user(1)), decoding: User.self)
            #expect(user == User(name: "User 1", age: 30))
        }
    }

    @Test func strataEndpointIsReachedByItsModuleName() async throws {
        try await withResolvedClient { networker, _ in
            let endpoint: Strata.Endpoint<User> = Strata.Endpoint(
                RequestDescription(route: UserEndpoint.user(2)),
                decoding: User.self)
            #expect(try await networker.send(endpoint) == User(name: "User 2", age: 30))

            let response = try await networker.response(for: endpoint.timeout(.seconds(5)))
            #expect(response.value == User(name: "User 2", age: 30))
            #expect(response.head.status == .ok)
        }
    }

    /// The Migrating article's other way out: an alias declared once.
    @Test func anAliasNamesStrataEndpointToo() async throws {
        typealias StrataEndpoint<T> = Strata.Endpoint<T>
        try await withResolvedClient { networker, _ in
            let endpoint = StrataEndpoint(RequestDescription(route: UserEndpoint.user(6)), decoding: User.self)
            let user = try await networker.send(endpoint)
            #expect(user == User(name: "User 6", age: 30))
        }
    }

    @Test func theUnqualifiedEndpointIsTheSeedsProtocol() async throws {
        // Compiles only because `Endpoint` here is a protocol that `UserEndpoint` conforms to.
        let route: any Endpoint = UserEndpoint.user(3)
        #expect(String(reflecting: (any Endpoint).self) == "StrataSwinjectTests.Endpoint")
        #expect(String(reflecting: Strata.Endpoint<User>.self) == "StrataCore.Endpoint<StrataSwinjectTests.User>")

        try await withResolvedClient { _, base in
            #expect(route.baseUrl == base.absoluteString)
            #expect(route.buildURL() == base.absoluteString + "/json/user/3")
            let url = try route.url()
            #expect(url.absoluteString == base.absoluteString + "/json/user/3")
            // One slash joins the base and a path written without one.
            #expect(UserEndpoint.photo(4).buildURL() == base.absoluteString + "/photos/4")
        }
    }

    @Test func aPhotoRouteDecodesToo() async throws {
        try await withResolvedClient { networker, _ in
            struct Photo: Decodable, Equatable, Sendable {
                let id: Int
                let title: String
            }
            let photo = try await networker.send(RequestDescription(route: UserEndpoint.photo(4)), decoding: Photo.self)
            #expect(photo == Photo(id: 4, title: "Photo 4"))
        }
    }

    /// A base URL the route cannot use fails the call as `.invalidURL`, naming the base and
    /// the path as written; nothing is sent and nothing traps.
    @Test func aBadBaseURLIsAnInvalidURLError() async throws {
        try await withResolvedClient { networker, _ in
            for base in ["", "api.example.com", "http://[::1"] {
                await SeedAPI.$baseUrl.withValue(base) {
                    let route = UserEndpoint.user(5)
                    #expect(throws: URLRouteError.invalidURL(base: base, path: "/json/user/5")) { try route.url() }
                    let error = await #expect(throws: StrataError.self) {
                        try await networker.send(RequestDescription(route: route), decoding: User.self)
                    }
                    #expect(error?.kind == .invalidURL)
                    #expect(error?.underlying as? URLRouteError == .invalidURL(base: base, path: "/json/user/5"))
                    #expect(route.buildURL() == (base.isEmpty ? "/json/user/5" : base + "/json/user/5"))
                }
            }
        }
    }
}
