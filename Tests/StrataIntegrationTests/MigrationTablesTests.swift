import Foundation
import Strata
import StrataTestCertificates
import StrataTesting
import Testing

@testable import StrataAsyncHTTPClient

/// The Strata column of the Migrating article's side-by-side tables, row by row, as written there,
/// run against a mock transport with exact expected values. A row changed in the article
/// is changed here too.
@Suite struct MigrationTablesTests {
    struct User: Codable, Equatable, Sendable {
        let id: Int
        let name: String
    }
    struct NewUser: Encodable, Sendable { let name: String }
    struct Signup: Encodable, Sendable { let email: String }
    struct UserEntry: Codable, RawMappable {
        typealias Raw = Json
        let id: Int
        let name: String
    }
    struct AppUser: DTOConvertible, Equatable {
        let name: String
        static func from(dto: UserEntry) throws -> AppUser { AppUser(name: dto.name) }
        func toDTO() throws -> UserEntry { UserEntry(id: 0, name: name) }
    }
    enum GitHub: ServiceRoute {
        case user(String)
        var baseURL: URL? { URL(string: "https://api.github.com") }
        var path: String {
            switch self {
            case .user(let name): "/users/\(name)"
            }
        }
    }
    enum RegistrationRoute: UrlRouteProvider {
        case auth
        case user(String)
        func url() throws -> URL {
            let base = URL(string: "http://example.com")
            switch self {
            case .auth: return try base + "/user/auth"
            case .user(let id): return try base + "/user/\(id)"
            }
        }
    }

    let transport = MockTransport()
    let url = "https://api.example.com/users"

    init() {
        transport.stub(.get, "/users/42", with: .json(["id": 42, "name": "Ann"]))
        transport.stub(.get, "/users", with: .json([["id": 1, "name": "Bob"]]))
        transport.stub(.post, "/users", with: .json(["id": 2, "name": "Cy"], status: .created))
        transport.stub(.post, "/signup", with: .status(.noContent))
        transport.stub(.get, "/missing", with: .status(.notFound))
        transport.stub(.get, "/users/ann", with: .json(["id": 3, "name": "ann"]))
        transport.stub(.get, "/user/7", with: .json(["id": 7, "name": "Dee"]))
        transport.stub(.post, "/user/auth", with: .json(["id": 0, "name": "Eve"]))
    }

    @Test func alamofireRows() async throws {
        let networker = Networker(transport: transport, middleware: [HeadersMiddleware(["User-Agent": "MyApp/1.0"])])
        // 2. GET and decode
        let user = try await networker.send(
            RequestDescription(route: "https://api.example.com/users/42"), decoding: User.self)
        #expect(user == User(id: 42, name: "Ann"))
        // 3. query parameters
        let users = try await networker.send(
            RequestDescription(route: url, parameters: ["q": "ann", "page": 2]), decoding: [User].self)
        #expect(users == [User(id: 1, name: "Bob")])
        #expect(transport.requests.last?.head.path == "/users?page=2&q=ann")
        // 4. JSON body
        let created = try await networker.send(
            RequestDescription(route: url, method: .post, parameters: NewUser(name: "Cy")), decoding: User.self)
        #expect(created == User(id: 2, name: "Cy"))
        #expect(transport.requests.last?.body == Data(#"{"name":"Cy"}"#.utf8))
        // 5. form body
        try await networker.send(
            RequestDescription(
                route: "https://api.example.com/signup", method: .post,
                parameters: Signup(email: "a@b.c"), encoding: .formURL))
        #expect(transport.requests.last?.body == Data("email=a%40b.c".utf8))
        // 6. headers
        _ = try await networker.send(
            RequestDescription(route: "https://api.example.com/users/42", headers: ["X-Token": "abc"]),
            decoding: User.self)
        #expect(transport.requests.last?.headerFields[HTTPField.Name("X-Token")!] == "abc")
        #expect(transport.requests.last?.headerFields[.userAgent] == "MyApp/1.0")
        // 7. a failed status
        let missing = await #expect(throws: StrataError.self) {
            try await networker.send(RequestDescription(route: "https://api.example.com/missing"), decoding: User.self)
        }
        #expect(missing?.status == 404)
        #expect(missing?.kind == .unacceptableStatus)
        #expect(try await Self.kindOfA404(networker) == .unacceptableStatus)
        // 8. timeout
        let timed = try await networker.send(
            Endpoint(RequestDescription(route: "https://api.example.com/users/42"), decoding: User.self).timeout(
                .seconds(5)))
        #expect(timed.id == 42)
        // 9. retries and token refresh
        let resilient = Networker(
            transport: transport,
            middleware: [
                RetryMiddleware(policy: RetryPolicy(maxAttempts: 3)),
                AuthenticationMiddleware(BearerTokenProvider(BearerToken("t1"), refresh: { _ in BearerToken("t2") })),
            ])
        _ = try await resilient.send(RequestDescription(route: "https://api.example.com/users/42"), decoding: User.self)
        #expect(transport.requests.last?.headerFields[.authorization] == "Bearer t1")
        // 10. multipart upload
        var form = MultipartFormData()
        form.append(Data([1, 2, 3]), name: "photo", fileName: "p.jpg", contentType: "image/jpeg")
        _ = try await networker.send(
            RequestDescription(route: url, method: .post, body: .multipart(form)), decoding: User.self)
        #expect(transport.requests.last?.headerFields[.contentType] == "multipart/form-data; boundary=\(form.boundary)")
        // 11. Basic authentication, per call and for every request
        let request = RequestDescription(route: "https://api.example.com/users/42")
        _ = try await networker.send(
            Endpoint(request, decoding: User.self).basicAuthentication(user: "ada", password: "pw"))
        #expect(transport.requests.last?.headerFields[.authorization] == "Basic YWRhOnB3")
        let basic = Networker(
            transport: transport, middleware: [HeadersMiddleware.basicAuthentication(user: "ada", password: "pw")])
        _ = try await basic.send(request, decoding: User.self)
        #expect(transport.requests.last?.headerFields[.authorization] == "Basic YWRhOnB3")
        // 12. as cURL
        let failed = await #expect(throws: StrataError.self) {
            try await networker.send(RequestDescription(route: "https://api.example.com/missing"), decoding: User.self)
        }
        // The request as the call made it: the client's steps (the User-Agent here) are not in it.
        #expect(failed?.curlCommand() == "curl 'https://api.example.com/missing'")
        // 13. per-host limits
        let limited = Networker(
            transport: transport, middleware: [ConcurrencyLimitMiddleware(perHost: 4, total: 64)])
        let first = try await limited.send(Endpoint(request, decoding: User.self).queuePriority(1))
        #expect(first.id == 42)
        // 14. trust (TrustTests calls TLS servers with such a client)
        let ca = try TestCertificateAuthority().root.certificate
        let trust = try ServerTrust(hosts: ["api.example.com": TrustPolicy(roots: .only([ca]))])
        let trusting = Networker(transport: try AsyncHTTPClientTransport(trust: trust))
        #expect(trusting.transport is AsyncHTTPClientTransport)
        #expect(trust.policy(forHost: "api.example.com").roots == .only([ca]))
        #expect(trust.policy(forHost: "www.example.com") == .system)
        // 16. proxies (ProxyIntegrationTests sends through tinyproxy and microsocks)
        let proxied = try AsyncHTTPClientTransport(
            proxy: ProxySettings(
                all: try .init(url: "http://user:pw@proxy:3128"), bypass: try ProxySettings.Bypass.list("localhost")))
        #expect(proxied.proxies?.settings.server(forScheme: "https", host: "api.example.com")?.endpoint == "proxy:3128")
        #expect(proxied.proxies?.settings.server(forScheme: "http", host: "localhost") == nil)
        try await proxied.shutdown()
        // 17. identical requests in flight (CoalescingIntegrationTests sends 100 at once)
        let coalescing = Networker(transport: transport, middleware: [CoalescingMiddleware()])
        let shared = try await coalescing.response(for: Endpoint(request, decoding: User.self))
        #expect(shared.value.id == 42)
        #expect(shared.coalescing == .sent)
        // 18. client-side rate limit (RateLimitIntegrationTests times it against a server)
        let polite = Networker(
            transport: transport,
            middleware: [RetryMiddleware(), RateLimitMiddleware(requestsPerSecond: 10, burst: 5)])
        let paced = try await polite.send(request, decoding: User.self)
        #expect(paced.id == 42)
    }

    /// Row 7 as written in the article. (The same `catch where` with a `#expect` or
    /// `Issue.record` inside the `do` crashes the 6.3.1 compiler in a test, so it lives here.)
    static func kindOfA404(_ networker: Networker) async throws -> StrataError.Kind? {
        do {
            _ = try await networker.send(
                RequestDescription(route: "https://api.example.com/missing"), decoding: User.self)
        } catch  where error.status == 404 {
            return error.kind
        }
        return nil
    }

    @Test func moyaRows() async throws {
        let networker = Networker(transport: transport)
        // callbacks
        let loaded: User? = await withCheckedContinuation { continuation in
            networker.load(Endpoint(RequestDescription(route: GitHub.user("ann")), decoding: User.self)) { result in
                continuation.resume(returning: result.value)
            }
        }
        #expect(loaded == User(id: 3, name: "ann"))
        // async, query encoding
        let user = try await networker.send(
            RequestDescription(route: GitHub.user("ann"), parameters: ["tab": "repos"], encoding: .urlQuery),
            decoding: User.self)
        #expect(user.name == "ann")
        #expect(transport.requests.last?.head.path == "/users/ann?tab=repos")
        // cancellation
        let task = networker.load(Endpoint(RequestDescription(route: GitHub.user("ann")), decoding: User.self)) { _ in }
        task.cancel()
        #expect(task.isCancelled)
    }

    @Test func nodeKitRows() async throws {
        let networker = Networker(transport: transport)
        let user = try await networker.send(
            RequestDescription(route: RegistrationRoute.user("7")), decoding: AppUser.self)
        #expect(user == AppUser(name: "Dee"))
        let signedIn = try await networker.send(
            try RequestDescription(
                route: RegistrationRoute.auth, model: AppUser(name: "Eve"),
                headers: ["X-Client": "ios"]), decoding: AppUser.self)
        #expect(signedIn == AppUser(name: "Eve"))
        #expect(transport.requests.last?.body == Data(#"{"id":0,"name":"Eve"}"#.utf8))
        #expect(transport.requests.last?.headerFields[HTTPField.Name("X-Client")!] == "ios")
    }
}
