import Foundation
import Strata
import StrataAsyncHTTPClient
import StrataTesting
import Testing

/// The README's code, kept compiling and true. Types are local to each test so the
/// snippet can stay as the README prints it.
@Suite struct ReadmeExampleTests {
    @Test func quickStart() throws {
        // Raw layer: what the server sends. `typealias Raw = JSON` is all a Codable DTO needs.
        struct PhotoEntry: Codable, RawMappable { typealias Raw = JSON; let id: String; let ref: String }
        struct UserEntry: Codable, RawMappable {
            typealias Raw = JSON
            let name: String
            let age: Int
            let photos: [PhotoEntry]
        }

        // Application layer: what the app uses.
        struct Photo: DTODecodable {
            let id: String
            let image: String
            static func from(dto: PhotoEntry) throws -> Photo { Photo(id: dto.id, image: dto.ref) }
        }
        struct User: DTODecodable {
            let name: String
            let photos: [Photo]
            static func from(dto: UserEntry) throws -> User {
                try User(name: dto.name, photos: .from(dto: dto.photos))
            }
        }

        // Routes, grouped by service.
        enum RegistrationRoute: URLRouteProvider {
            case auth, register, user(String)

            func url() throws -> URL {
                let base = URL(string: "http://example.com")
                switch self {
                case .auth: return try base + "/user/auth"
                case .register: return try base + "/user/register"
                case .user(let id): return try base + "/user/\(id)"
                }
            }
        }

        let userEndpoint = Endpoint(RequestDescription(route: RegistrationRoute.user("42")), decoding: User.self)

        let login = RequestDescription(
            route: RegistrationRoute.auth,
            method: .post,
            parameters: ["login": "ann", "password": "p@ss word"],
            encoding: .formURL)
        let encoded = try login.encoded()

        #expect(encoded.head.url?.absoluteString == "http://example.com/user/auth")
        #expect(encoded.head.headerFields[.contentType] == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(encoded.body?.bufferedData == Data("login=ann&password=p%40ss%20word".utf8))
        #expect(try userEndpoint.encoded().head.url?.absoluteString == "http://example.com/user/42")
    }

    @Test func mockSnippet() async throws {
        struct PhotoEntry: Codable, RawMappable { typealias Raw = JSON; let id: String; let ref: String }
        struct UserEntry: Codable, RawMappable { typealias Raw = Json; let name: String; let photos: [PhotoEntry] }
        struct User: DTODecodable {
            let name: String
            static func from(dto: UserEntry) throws -> User { User(name: dto.name) }
        }
        let userEndpoint = Endpoint(RequestDescription(route: try URL(string: "http://example.com") + "/user/42"), model: User.self)

        let mock = MockTransport()
        mock.stub(.get, "/user/:id", with: .json(["name": "Ann", "age": 31, "type": 0, "photos": []]))
        let user = try await Networker(transport: mock).send(userEndpoint)
        #expect(mock.requests.map(\.path) == ["/user/42"])
        #expect(user.name == "Ann")
    }
}

extension ReadmeExampleTests {
    struct APIProblem: Decodable, Equatable { let error: String }
    struct MyParseError: Error {}

    /// The README's error-handling snippet, against a mock answering 422.
    @Test func errorHandlingSnippet() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/user/:id", with: .json(["error": "name too short"], status: .unprocessableContent))
        let networker = Networker(transport: mock)
        let userEndpoint = Endpoint<JSON>(RequestDescription(route: try URL(string: "http://example.com") + "/user/42"))
        var seen = ""
        do {
            _ = try await networker.send(userEndpoint)
        } catch where error.kind == .unacceptableStatus {
            let problem = try error.decodeBody(as: APIProblem.self)
            seen = problem.error
        } catch where error.isTimeout {
            seen = "timed out while \(error.phase!)"
        } catch {
            if error.underlying is MyParseError { seen = "parse" }
        }
        #expect(seen == "name too short")
    }

    @Test func resiliencePreset() async throws {
        let savedToken = "saved"
        @Sendable func renewToken(_ token: String) async throws -> BearerToken { BearerToken("renewed-\(token)") }

        let networker = Networker(
            transport: AsyncHTTPClientTransport(),
            middleware: .resilient(
                authentication: AuthenticationMiddleware(BearerTokenProvider(BearerToken(savedToken)) { rejected in
                    try await renewToken(rejected.value)   // your sign-in call, returning a BearerToken
                }),
                perAttempt: [HeadersMiddleware([.userAgent: "MyApp/1.0"])]))

        #expect(networker.middleware.map { "\(type(of: $0))" } == [
            "RedirectMiddleware", "RetryMiddleware", "CircuitBreakerMiddleware",
            "AuthenticationMiddleware<BearerTokenProvider>", "HeadersMiddleware",
        ])
        try await (networker.transport as? AsyncHTTPClientTransport)?.shutdown()
    }
}
