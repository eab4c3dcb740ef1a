import Foundation
import Testing

@testable import Strata
@testable import StrataCore

@Suite struct URLPathJoiningTests {
    @Test(arguments: [
        ("https://x.io", "/a", "https://x.io/a"),
        ("https://x.io/", "/a", "https://x.io/a"),
        ("https://x.io/", "a", "https://x.io/a"),
        ("https://x.io", "a", "https://x.io/a"),
        ("https://x.io//", "//a", "https://x.io/a"),
        ("https://x.io/v1", "users", "https://x.io/v1/users"),
        ("https://x.io/v1/", "/users/", "https://x.io/v1/users/"),
        ("https://x.io/v1", "", "https://x.io/v1"),
        ("https://x.io:8080/v1", "/a/b", "https://x.io:8080/v1/a/b"),
        ("https://x.io", "/users?page=2", "https://x.io/users?page=2"),
        ("https://x.io/?key=k", "/users?page=2", "https://x.io/users?key=k&page=2"),
        ("https://x.io", "/a b/é", "https://x.io/a%20b/%C3%A9"),
        ("https://x.io", "/a%2Fb", "https://x.io/a%2Fb"),
    ])
    func joinsWithOneSlash(base: String, path: String, expected: String) throws {
        let url = try URL(string: base) + path
        #expect(url.absoluteString == expected)
    }

    @Test func nilBaseIsAnError() {
        let base = URL(string: "")
        #expect(throws: URLRouteError.missingBaseURL(path: "/a")) { try base + "/a" }
    }

    @Test func baseWithoutSchemeIsAnError() {
        #expect(throws: URLRouteError.invalidURL(base: "example.com", path: "/a")) {
            try URL(string: "example.com") + "/a"
        }
    }

    @Test func errorsDescribeThemselves() {
        #expect(
            URLRouteError.missingBaseURL(path: "/a").description
                == "cannot build the URL for \"/a\": the base URL is nil")
    }
}

private protocol ExampleAPI: ServiceRoute {}

extension ExampleAPI {
    var baseURL: URL? { URL(string: "https://api.example.com/v1/") }
}

private enum UserRoute: ExampleAPI {
    case profile(id: Int)
    case search

    var path: String {
        switch self {
        case .profile(let id): "/users/\(id)"
        case .search: "users"
        }
    }
}

private enum BrokenRoute: ServiceRoute {
    case any
    var baseURL: URL? { nil }
    var path: String { "/x" }
}

@Suite struct ServiceRouteTests {
    @Test func baseDeclaredOnceAndPathPerCase() throws {
        #expect(try UserRoute.profile(id: 7).url().absoluteString == "https://api.example.com/v1/users/7")
        #expect(try UserRoute.search.url().absoluteString == "https://api.example.com/v1/users")
    }

    @Test func missingBaseThrows() {
        #expect(throws: URLRouteError.missingBaseURL(path: "/x")) { try BrokenRoute.any.url() }
    }

    @Test func seedRegistrationRoute() throws {
        #expect(try RegistrationRoute.auth.url().absoluteString == "http://example.com/user/auth")
        #expect(try RegistrationRoute.register.url().absoluteString == "http://example.com/user/register")
        #expect(try RegistrationRoute.user("42").url().absoluteString == "http://example.com/user/42")
    }

    @Test func routesStayGenericForOtherTransports() {
        struct GRPCMethod: Sendable {
            let service: String
            let method: String
        }
        let request = RequestDescription(route: GRPCMethod(service: "Users", method: "Get"), method: .post)
        #expect(request.route.service == "Users")
        #expect(request.method == .post)
    }
}
