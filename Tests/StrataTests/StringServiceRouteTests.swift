import Foundation
import Testing

@testable import Strata
@testable import StrataCore

/// Seed 004's `Endpoint` protocol, refining ``StringServiceRoute`` with its requirements
/// restated, as the seed's code keeps them.
private protocol SeedEndpoint: StringServiceRoute {
    var baseUrl: String { get }
    var path: String { get }
    func buildURL() -> String
}

extension SeedEndpoint {
    var baseUrl: String { "https://api.example.com/v1/" }
}

private enum SeedUserEndpoint: SeedEndpoint {
    case user(Int)
    case search(String)

    var path: String {
        switch self {
        case .user(let id): "/users/\(id)"
        case .search(let text): "users?q=\(text)"
        }
    }
}

@Suite struct StringServiceRouteTests {
    @Test func theSeedsRoutesJoinWithOneSlash() throws {
        #expect(SeedUserEndpoint.user(1).buildURL() == "https://api.example.com/v1/users/1")
        #expect(try SeedUserEndpoint.user(1).url().absoluteString == "https://api.example.com/v1/users/1")
        #expect(SeedUserEndpoint.search("Ann Lee").buildURL() == "https://api.example.com/v1/users?q=Ann%20Lee")
        #expect(
            try SeedUserEndpoint.search("Ann Lee").url().absoluteString
                == "https://api.example.com/v1/users?q=Ann%20Lee")
    }

    @Test(arguments: [
        ("", "/users/1", "/users/1"),
        ("api.example.com", "/users/1", "api.example.com/users/1"),
        ("api.example.com//", "users/1", "api.example.com/users/1"),
        ("http://[::1", "/users/1", "http://[::1/users/1"),
    ])
    func aBadBaseThrowsAndBuildURLStillSaysWhatWasMeant(base: String, path: String, built: String) {
        struct Route: StringServiceRoute {
            let baseUrl: String
            let path: String
        }
        let route = Route(baseUrl: base, path: path)
        #expect(throws: URLRouteError.invalidURL(base: base, path: path)) { try route.url() }
        #expect(route.buildURL() == built)
    }

    @Test func aBuildURLOfYourOwnIsKeptAndURLStillJoinsTheParts() throws {
        struct Route: StringServiceRoute {
            let baseUrl = "https://api.example.com"
            let path = "/users"
            func buildURL() -> String { baseUrl + path + "?mine" }
        }
        #expect(Route().buildURL() == "https://api.example.com/users?mine")
        #expect(try Route().url().absoluteString == "https://api.example.com/users")
    }
}
