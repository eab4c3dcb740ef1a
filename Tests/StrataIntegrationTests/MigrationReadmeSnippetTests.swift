import Foundation
import Strata
import StrataTesting
import Testing

/// The README snippet for users migrating from Alamofire, Moya or NodeKit, kept compiling
/// and true. `import Strata` alone: HTTPTypes comes with it.
@Suite struct MigrationReadmeSnippetTests {
    struct UserEntry: Codable, RawMappable { typealias Raw = Json; let id: Int; let name: String }
    struct User: DTODecodable, Equatable {
        let name: String
        static func from(dto: UserEntry) throws -> User { User(name: dto.name) }
    }

    @Test func theNaturalCode() async throws {
        let transport = MockTransport()
        transport.stub(.get, "/users/42", with: .json(["id": 42, "name": "Ann"]))
        transport.stub(.get, "/users/43", with: .status(.noContent))
        transport.stub(.delete, "/users/42", with: .status(.noContent))
        let api = URL(string: "https://api.example.com")
        let traceID = "t-1"

        // --- README snippet starts ---
        let networker = Networker(
            transport: transport,
            middleware: [HeadersMiddleware(["User-Agent": "MyApp/1.0"])])   // string names, or [.userAgent: …]

        let request = RequestDescription(route: try api + "/users/42", headers: ["X-Token": "abc"])

        // One label for every model kind: Decodable, raw DTO, app model, or an Optional of one.
        let user = try await networker.send(request, decoding: User.self)

        // Per-call settings at the call site, in one expression.
        let fresh = try await networker.send(
            Endpoint(request, decoding: User.self)
                .timeout(.seconds(5))
                .header("X-Trace", traceID)
                .retry(.never))

        // No type named: the body is ignored (`Endpoint<Data>`, `<String>`, `<JSON>` when named).
        try await networker.send(Endpoint(RequestDescription(route: try api + "/users/42", method: .delete)))

        // An empty body (204, 205, Content-Length: 0) is nil for an Optional of any model kind.
        let gone = try await networker.send(RequestDescription(route: try api + "/users/43"), decoding: User?.self)
        // --- README snippet ends ---

        #expect(user == User(name: "Ann"))
        #expect(fresh == User(name: "Ann"))
        #expect(gone == nil)
        let sent = transport.requests.map { [$0.method.rawValue, $0.path, $0.headerFields[.userAgent] ?? "", $0.headerFields[HTTPField.Name("X-Trace")!] ?? ""] }
        #expect(sent == [
            ["GET", "/users/42", "MyApp/1.0", ""],
            ["GET", "/users/42", "MyApp/1.0", "t-1"],
            ["DELETE", "/users/42", "MyApp/1.0", ""],
            ["GET", "/users/43", "MyApp/1.0", ""],
        ])
        #expect(transport.requests.prefix(2).map { $0.headerFields[HTTPField.Name("X-Token")!] } == ["abc", "abc"])
    }

    @Test func theNaturalEncodings() throws {
        // --- README snippet starts ---
        // GET parameters go in the query, POST/PUT/PATCH parameters in a JSON body: nothing to pick.
        let search = RequestDescription(route: "https://api.example.com/users", parameters: ["q": "ann", "page": 2])
        let create = RequestDescription(route: "https://api.example.com/users", method: .post,
                                        parameters: ["name": "Ann", "age": 31, "tags": ["a", "b"]])   // no `as JSON`

        // Form and query keys in snake_case, as JSONEncoder's .convertToSnakeCase does for
        // JSON; the client's JSON key strategy is never applied to forms on its own.
        struct Signup: Encodable, Sendable { let firstName: String; let homeCity: String }
        let signup = RequestDescription(route: "https://api.example.com/signup", method: .post,
                                        parameters: Signup(firstName: "Ann", homeCity: "Oslo"),
                                        encoding: .formURL(URLEncodedFormEncoder(keyEncoding: .convertToSnakeCase)))
        // --- README snippet ends ---

        #expect(try search.encoded().head.url?.absoluteString == "https://api.example.com/users?page=2&q=ann")
        #expect(try create.encoded().body?.bufferedData == Data(#"{"age":31,"name":"Ann","tags":["a","b"]}"#.utf8))
        #expect(try signup.encoded().body?.bufferedData == Data("first_name=Ann&home_city=Oslo".utf8))
    }
}
