import Foundation
import Strata
import StrataTesting
import Testing

// No `import HTTPTypes`: `import Strata` alone must be enough to name `HTTPField.Name`,
// `HTTPFields` and `HTTPResponse.Status`, as an app coming from Alamofire or Moya writes them.

/// The API as a user migrating from Alamofire, Moya or NodeKit writes it: every test
/// reads like app code, and asserts exact values.
@Suite struct MigrationAPITests {
    // MARK: The app's models, one of each kind

    /// A plain `Decodable` model.
    struct Repo: Decodable, Equatable {
        let id: Int
        let name: String
    }

    /// A raw DTO.
    struct UserEntry: Codable, RawMappable, Equatable {
        typealias Raw = Json
        let id: Int
        let name: String
    }

    /// An app model read from its DTO.
    struct User: DTODecodable, Equatable {
        let id: Int
        let displayName: String
        static func from(dto: UserEntry) throws -> User { User(id: dto.id, displayName: dto.name.capitalized) }
    }

    /// `Decodable` and an app model: read as the app model.
    struct Profile: Decodable, DTODecodable, Equatable {
        let name: String
        static func from(dto: UserEntry) throws -> Profile { Profile(name: "model:\(dto.name)") }
    }

    /// `Decodable` and a raw DTO with its own body reading: read as the raw DTO.
    struct Badge: Decodable, RawDecodable, Equatable {
        typealias Raw = JSON
        let name: String
        static func from(raw: JSON) throws -> Badge { Badge(name: "raw:\(raw["name"]?.stringValue ?? "?")") }
        static func decode(rawBody: Data, using decoder: JSONDecoder) throws -> Badge {
            try from(raw: JSON(rawBody: rawBody, decoder: decoder))
        }
    }

    /// A raw DTO and an app model at once: read as the app model.
    struct Hybrid: RawDecodable, DTODecodable, Equatable {
        typealias Raw = JSON
        let source: String
        static func from(raw: JSON) throws -> Hybrid { Hybrid(source: "raw") }
        static func from(dto: UserEntry) throws -> Hybrid { Hybrid(source: "model:\(dto.name)") }
    }

    let api = URL(string: "https://api.example.com")!
    let userJSON: JSON = ["id": 7, "name": "ann"]

    func networker(_ mock: MockTransport, middleware: [any Middleware] = []) -> Networker {
        Networker(transport: mock, middleware: middleware)
    }

    // MARK: Item 2 — headers named by strings, HTTPTypes re-exported

    @Test func headersMiddlewareTakesStringNames() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/repos/1", with: .json(["id": 1, "name": "strata"]))
        let networker = Networker(transport: mock, middleware: [HeadersMiddleware(["User-Agent": "MyApp/1.0"])])

        let repo = try await networker.send(
            RequestDescription(route: api.appending(path: "repos/1")), decoding: Repo.self)

        #expect(repo == Repo(id: 1, name: "strata"))
        #expect(mock.requests.first?.headerFields[.userAgent] == "MyApp/1.0")
    }

    @Test func requestDescriptionTakesStringNames() throws {
        let request = RequestDescription(
            route: api.appending(path: "me"), headers: ["X-Token": "abc", "Accept": "application/json"])

        let head = try request.encoded().head

        let token = HTTPField.Name("X-Token")!
        #expect(head.headerFields[token] == "abc")
        #expect(head.headerFields[.accept] == "application/json")
        #expect(head.headerFields.map(\.name.rawName) == ["X-Token", "Accept"])
    }

    @Test func stringNamesKeepOrderAndRepeats() throws {
        let request = RequestDescription(
            route: api, method: .post, parameters: ["a": 1] as JSON, headers: ["X-A": "1", "X-A": "2"])

        let head = try request.encoded().head

        #expect(head.headerFields[values: HTTPField.Name("x-a")!] == ["1", "2"])
        #expect(head.headerFields[.contentType] == "application/json")
    }

    @Test func modelAndRawRequestsTakeStringNames() throws {
        struct NewUser: DTOEncodable {
            let name: String
            func toDTO() throws -> UserEntry { UserEntry(id: 0, name: name) }
        }
        let model = try RequestDescription(
            route: api.appending(path: "users"), model: NewUser(name: "ann"),
            headers: ["X-Token": "abc"])
        let raw = try RequestDescription(
            route: api.appending(path: "users"), raw: UserEntry(id: 1, name: "bob"),
            headers: ["X-Token": "def"])

        let (modelHead, modelBody) = try model.encoded().headAndBytes
        let (rawHead, rawBody) = try raw.encoded().headAndBytes

        #expect(modelHead.method == .post)
        #expect(modelHead.headerFields[HTTPField.Name("X-Token")!] == "abc")
        #expect(modelBody == Data(#"{"id":0,"name":"ann"}"#.utf8))
        #expect(rawHead.headerFields[HTTPField.Name("X-Token")!] == "def")
        #expect(rawBody == Data(#"{"id":1,"name":"bob"}"#.utf8))
        let bad = try RequestDescription(route: api, raw: UserEntry(id: 1, name: "bob"), headers: ["Bad Name": "x"])
        #expect(throws: HeaderFieldError(name: "Bad Name")) { try bad.encoded() }
    }

    @Test func typedNamesStillWork() throws {
        let request = RequestDescription(route: api, headers: [.authorization: "Bearer t"])
        #expect(try request.encoded().head.headerFields[.authorization] == "Bearer t")
    }

    @Test func invalidNameInARequestIsATypedEncodingError() async throws {
        let mock = MockTransport()
        let networker = networker(mock)
        let request = RequestDescription(route: api, headers: ["Bad Name": "x", "X-Ok": "1"])

        let error = await #expect(throws: StrataError.self) { try await networker.send(request) }

        #expect(error?.kind == .encoding)
        #expect(error?.underlying as? HeaderFieldError == HeaderFieldError(name: "Bad Name"))
        #expect(mock.requests.isEmpty)
        #expect(throws: HeaderFieldError(name: "Bad Name")) { try request.encoded() }
    }

    @Test func invalidNameInHeadersMiddlewareIsATypedMiddlewareError() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/", with: .status(.ok))
        let networker = networker(mock, middleware: [HeadersMiddleware(["User Agent": "MyApp/1.0"])])

        let error = await #expect(throws: StrataError.self) { try await networker.send(RequestDescription(route: api)) }

        #expect(error?.kind == .middleware)
        #expect(error?.underlying as? HeaderFieldError == HeaderFieldError(name: "User Agent"))
        #expect(mock.requests.isEmpty)
    }

    // MARK: Item 3 — one label for every model kind

    @Test func decodingStringAndDataReadsTheBody() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/page", with: .text("<html>hi</html>", contentType: "text/html"))
        let networker = networker(mock)
        let request = RequestDescription(route: api.appending(path: "page"))

        let text = try await networker.send(request, decoding: String.self)
        let bytes = try await networker.send(request, decoding: Data.self)
        let viaEndpoint = try await networker.send(Endpoint(request, decoding: String.self))

        #expect(text == "<html>hi</html>")
        #expect(bytes == Data("<html>hi</html>".utf8))
        #expect(viaEndpoint == "<html>hi</html>")
    }

    @Test func decodingReadsEveryModelKind() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/users/7", with: .json(userJSON))
        let networker = networker(mock)
        let request = RequestDescription(route: api.appending(path: "users/7"))

        #expect(try await networker.send(Endpoint(request, decoding: UserEntry.self)) == UserEntry(id: 7, name: "ann"))
        #expect(try await networker.send(Endpoint(request, decoding: User.self)) == User(id: 7, displayName: "Ann"))
        #expect(try await networker.send(Endpoint(request, decoding: Repo.self)) == Repo(id: 7, name: "ann"))
        #expect(try await networker.send(Endpoint(request, decoding: User?.self)) == User(id: 7, displayName: "Ann"))
        #expect(try await networker.send(Endpoint(request, decoding: UserEntry?.self)) == UserEntry(id: 7, name: "ann"))
        #expect(try await networker.send(Endpoint(request, decoding: Repo?.self)) == Repo(id: 7, name: "ann"))
    }

    @Test func networkerSendsARequestDescriptionDecodingAnyKind() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/users/7", with: .json(userJSON))
        mock.stub(.get, "/users", with: .json([userJSON, ["id": 8, "name": "bob"]]))
        let networker = networker(mock)
        let request = RequestDescription(route: api.appending(path: "users/7"))

        let user = try await networker.send(request, decoding: User.self)
        let entry = try await networker.send(request, decoding: UserEntry.self)
        let repo = try await networker.send(request, decoding: Repo.self)
        let users = try await networker.send(
            RequestDescription(route: api.appending(path: "users")), decoding: [User].self)

        #expect(user == User(id: 7, displayName: "Ann"))
        #expect(entry == UserEntry(id: 7, name: "ann"))
        #expect(repo == Repo(id: 7, name: "ann"))
        #expect(users == [User(id: 7, displayName: "Ann"), User(id: 8, displayName: "Bob")])
    }

    @Test func priorityAppModelOverRawDTOOverDecodable() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/users/7", with: .json(userJSON))
        let networker = networker(mock)
        let request = RequestDescription(route: api.appending(path: "users/7"))

        #expect(try await networker.send(Endpoint(request, decoding: Profile.self)) == Profile(name: "model:ann"))
        #expect(try await networker.send(Endpoint(request, decoding: Badge.self)) == Badge(name: "raw:ann"))
        #expect(try await networker.send(Endpoint(request, decoding: Hybrid.self)) == Hybrid(source: "model:ann"))
        #expect(try await networker.send(request, decoding: Profile.self) == Profile(name: "model:ann"))
        #expect(try await networker.send(request, decoding: Badge.self) == Badge(name: "raw:ann"))
        #expect(try await networker.send(request, decoding: Hybrid.self) == Hybrid(source: "model:ann"))
        #expect(try await networker.send(Endpoint(request, decoding: Profile?.self)) == Profile(name: "model:ann"))
    }

    @Test func anUntypedEndpointIsVoid() async throws {
        let mock = MockTransport()
        mock.stub(.delete, "/users/7", with: .text("deleted"))
        let networker = networker(mock)

        let delete = Endpoint(RequestDescription(route: api.appending(path: "users/7"), method: .delete))
        try await networker.send(delete)
        try await networker.send(RequestDescription(route: api.appending(path: "users/7"), method: .delete))

        #expect(type(of: delete) == Endpoint<Void>.self)
        #expect(mock.requests.map(\.method) == [.delete, .delete])
    }

    @Test func namedBodyTypesStillWork() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/users/7", with: .json(userJSON))
        let networker = networker(mock)
        let request = RequestDescription(route: api.appending(path: "users/7"))

        let data = try await networker.send(Endpoint<Data>(request))
        let text = try await networker.send(Endpoint<String>(request))
        let json = try await networker.send(Endpoint<JSON>(request))
        let typed: Endpoint<String> = Endpoint(request)

        #expect(data == Data(#"{"id":7,"name":"ann"}"#.utf8))
        #expect(text == #"{"id":7,"name":"ann"}"#)
        #expect(json == userJSON)
        #expect(try await networker.send(typed) == #"{"id":7,"name":"ann"}"#)
    }

    // MARK: Item 4 — per-call settings at the call site

    @Test func modifiersDescribeTheCallInOneExpression() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/users/7", with: .json(userJSON))
        let networker = networker(mock)
        let request = RequestDescription(route: api.appending(path: "users/7"), headers: ["X-Token": "abc"])

        let user = try await networker.send(
            Endpoint(request, decoding: User.self)
                .timeout(.seconds(5))
                .header("X-Trace", "t-1")
                .header(.acceptLanguage, "de")
                .headers(["X-Token": "xyz", "X-Client": "ios"])
                .retry(.never))

        #expect(user == User(id: 7, displayName: "Ann"))
        let sent = try #require(mock.requests.first?.headerFields)
        #expect(sent.map(\.name.rawName) == ["X-Token", "X-Trace", "Accept-Language", "X-Client"])
        #expect(sent.map(\.value) == ["xyz", "t-1", "de", "ios"])
    }

    @Test func modifiersSetTheEndpointsProperties() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let encoder = JSONEncoder()
        let endpoint = Endpoint(RequestDescription(route: api), decoding: Repo.self)
            .timeout(.seconds(5))
            .attemptTimeout(.milliseconds(1500))
            .validation(ResponseValidation(statusCodes: [200, 404]))
            .decoder(decoder)
            .encoder(encoder)
            .retry(.withIdempotencyKey)
            .attribute("cache", "skip")
            .attribute("priority", "high")

        #expect(endpoint.timeout == .seconds(5))
        #expect(endpoint.attemptTimeout == .milliseconds(1500))
        #expect(endpoint.validation?.acceptableStatusCodes == [200, 404])
        #expect(endpoint.jsonDecoder === decoder)
        #expect(endpoint.jsonEncoder === encoder)
        guard case .withIdempotencyKey = endpoint.retry else {
            Issue.record("retry is \(String(describing: endpoint.retry))")
            return
        }
        #expect(endpoint.attributes == ["cache": "skip", "priority": "high"])
    }

    @Test func modifiersReachTheCall() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/missing", with: .json(["error_text": "gone"], status: .notFound))
        let networker = networker(mock)
        let snake = JSONDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        struct Problem: Decodable, Equatable { let errorText: String }

        let problem = try await networker.send(
            Endpoint(RequestDescription(route: api.appending(path: "missing")), decoding: Problem.self)
                .validation(.acceptAll)
                .decoder(snake))

        #expect(problem == Problem(errorText: "gone"))
    }

    @Test func aBadStringNameInAModifierFailsTheCallTyped() async throws {
        let mock = MockTransport()
        let networker = networker(mock)

        let error = await #expect(throws: StrataError.self) {
            try await networker.send(
                Endpoint(RequestDescription(route: api), decoding: Repo.self).header("X:Trace", "1"))
        }

        #expect(error?.kind == .encoding)
        #expect(error?.underlying as? HeaderFieldError == HeaderFieldError(name: "X:Trace"))
    }

    // MARK: Item 5 — empty bodies into optionals (mock transport; the real server is in the integration tests)

    /// 204 No Content, 205 Reset Content and a 200 with zero bytes (`Content-Length: 0`).
    static let emptyResponses: [MockResponse] = [
        .status(.noContent), .status(.resetContent), .data(Data(), status: .ok, contentType: nil),
    ]

    @Test(arguments: emptyResponses) func emptyBodyIsNilForEveryOptionalKind(_ empty: MockResponse) async throws {
        let mock = MockTransport()
        mock.stub(.get, "/maybe", with: empty)
        let networker = networker(mock)
        let request = RequestDescription(route: api.appending(path: "maybe"))

        let repo = try await networker.send(request, decoding: Repo?.self)
        let entry = try await networker.send(request, decoding: UserEntry?.self)
        let user = try await networker.send(request, decoding: User?.self)
        let profile = try await networker.send(request, decoding: Profile?.self)
        let raw = try await networker.send(Endpoint(request, raw: UserEntry?.self))
        let model = try await networker.send(Endpoint(request, model: User?.self))
        let users = try await networker.send(request, decoding: [User]?.self)

        #expect(repo == nil)
        #expect(entry == nil)
        #expect(user == nil)
        #expect(profile == nil)
        #expect(raw == nil)
        #expect(model == nil)
        #expect(users == nil)
    }

    @Test(arguments: emptyResponses) func emptyBodyFailsEveryNonOptionalKindSayingSo(_ empty: MockResponse) async throws
    {
        let mock = MockTransport()
        mock.stub(.get, "/maybe", with: empty)
        let networker = networker(mock)
        let request = RequestDescription(route: api.appending(path: "maybe"))
        let status =
            ["204 No Content", "205 Reset Content", "200 OK"].first { $0.hasPrefix("\(empty.status.code)") } ?? ""

        let errors: [StrataError?] = [
            await #expect(throws: StrataError.self) { try await networker.send(request, decoding: Repo.self) },
            await #expect(throws: StrataError.self) { try await networker.send(request, decoding: UserEntry.self) },
            await #expect(throws: StrataError.self) { try await networker.send(request, decoding: User.self) },
            await #expect(throws: StrataError.self) { try await networker.send(request, decoding: [User].self) },
        ]
        let names = ["Repo", "UserEntry", "User", "Array<User>"]

        for (error, name) in zip(errors, names) {
            #expect(error?.kind == .decoding)
            #expect(
                error?.mappingError?.reason
                    == "the response body was empty (\(status)); \(name) needs one, \(name)? accepts none")
            #expect(error.map { "\($0)".contains("the response body was empty") } == true)
        }
    }

    @Test func aNullBodyIsStillNilAndAValueStillDecodes() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/null", with: .text("null", contentType: "application/json"))
        mock.stub(.get, "/value", with: .json(userJSON))
        let networker = networker(mock)

        let none = try await networker.send(
            RequestDescription(route: api.appending(path: "null")), decoding: Repo?.self)
        let some = try await networker.send(
            RequestDescription(route: api.appending(path: "value")), decoding: User?.self)

        #expect(none == nil)
        #expect(some == User(id: 7, displayName: "Ann"))
    }
}

private extension EncodedRequest {
    var headAndBytes: (HTTPRequest, Data?) { (head, body?.bufferedData) }
}
