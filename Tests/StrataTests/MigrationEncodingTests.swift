import Foundation
import HTTPTypes
import Strata
import StrataTestSupport
import StrataTesting
import Testing

/// The API as a user coming from Alamofire or Moya writes it: method-dependent parameter
/// encoding, form key strategies, string routes, `MockResponse.json` of any model,
/// `error.status == 404`, mixed dictionary literals. Each test is written the natural way
/// and asserts exact values.
@Suite struct MigrationEncodingTests {
    private static func body(_ request: EncodedRequest) -> String? {
        request.body?.bufferedData.map { String(decoding: $0, as: UTF8.self) }
    }

    private struct Search: Encodable, Sendable {
        let query: String
        let page: Int
    }

    // MARK: 1. The default encoding follows the method

    @Test func getParametersGoInTheQueryByDefault() throws {
        let request = RequestDescription(route: "https://api.example.com/users", parameters: ["page": 2, "q": "swift"])
        let encoded = try request.encoded()
        #expect(encoded.head.method == .get)
        #expect(encoded.head.url?.absoluteString == "https://api.example.com/users?page=2&q=swift")
        #expect(encoded.body == nil)
        #expect(encoded.head.headerFields[.contentType] == nil)
    }

    @Test(arguments: [HTTPRequest.Method.get, .head, .delete])
    func queryMethodsPutParametersInTheQuery(method: HTTPRequest.Method) throws {
        let encoded = try RequestDescription(
            route: "https://api.example.com/users", method: method,
            parameters: Search(query: "a b", page: 1)
        ).encoded()
        #expect(encoded.head.url?.absoluteString == "https://api.example.com/users?page=1&query=a%20b")
        #expect(encoded.body == nil)
        #expect(encoded.head.headerFields[.contentType] == nil)
    }

    @Test(arguments: [HTTPRequest.Method.post, .put, .patch])
    func bodyMethodsStillSendJSON(method: HTTPRequest.Method) throws {
        let encoded = try RequestDescription(
            route: "https://api.example.com/users", method: method,
            parameters: ["q": "swift"]
        ).encoded()
        #expect(encoded.head.url?.absoluteString == "https://api.example.com/users")
        #expect(Self.body(encoded) == #"{"q":"swift"}"#)
        #expect(encoded.head.headerFields[.contentType] == "application/json")
    }

    @Test func queryIsMergedAfterTheURLsOwnQuery() throws {
        let encoded = try RequestDescription(
            route: "https://api.example.com/search?lang=en",
            parameters: ["q": "swift"]
        ).encoded()
        #expect(encoded.head.url?.absoluteString == "https://api.example.com/search?lang=en&q=swift")
    }

    @Test func automaticIsTheDefaultOfEveryInitializer() {
        let plain = RequestDescription(route: "https://api.example.com/users")
        let mixed = RequestDescription(route: "https://api.example.com/users", parameters: ["a": 1, "b": "c"])
        guard case .automatic = plain.encoding, case .automatic = mixed.encoding else {
            Issue.record("the default encoding is not .automatic")
            return
        }
        #expect(ParametersEncoding.queryMethods == [.get, .head, .delete])
    }

    @Test func explicitJSONOnAGetIsStillAnError() throws {
        let request = RequestDescription(
            route: "https://api.example.com/users", parameters: ["q": "swift"], encoding: .json)
        let error = #expect(throws: ParameterEncodingError.self) { try request.encoded() }
        #expect(error?.description.contains("use .urlQuery") == true)
        // DELETE may carry a body when asked for explicitly.
        let delete = try RequestDescription(
            route: "https://api.example.com/users/1", method: .delete,
            parameters: ["reason": "spam"], encoding: .json
        ).encoded()
        #expect(Self.body(delete) == #"{"reason":"spam"}"#)
        #expect(delete.head.url?.absoluteString == "https://api.example.com/users/1")
    }

    @Test func getWithParametersThroughTheClient() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/users", with: .json(["count": 0]))
        let endpoint = Endpoint<JSON>(
            RequestDescription(
                route: "https://api.example.com/users",
                parameters: ["page": 2, "tags": ["a", "b"]]))
        let value = try await Networker(transport: mock).send(endpoint)
        #expect(value == ["count": 0])
        #expect(
            mock.requests.map { $0.url?.absoluteString } == [
                "https://api.example.com/users?page=2&tags%5B%5D=a&tags%5B%5D=b"
            ])
    }

    // MARK: 6. Key strategy for query and form parameters

    private struct Person: Encodable, Sendable {
        struct Address: Encodable, Sendable { let streetName: String }
        let firstName: String
        let homeAddress: Address
    }

    @Test func snakeCaseFormKeysAtEveryLevel() throws {
        let encoder = URLEncodedFormEncoder(keyEncoding: .convertToSnakeCase)
        let person = Person(firstName: "Ann", homeAddress: .init(streetName: "Main St"))
        #expect(try encoder.encode(person) == "first_name=Ann&home_address%5Bstreet_name%5D=Main%20St")
        #expect(try encoder.encode(["userID": 7, "myURLProperty": "x"] as JSON) == "my_url_property=x&user_id=7")
        #expect(try URLEncodedFormEncoder().encode(person) == "firstName=Ann&homeAddress%5BstreetName%5D=Main%20St")
    }

    @Test func customKeyEncoding() throws {
        let encoder = URLEncodedFormEncoder(objectEncoding: .dots, keyEncoding: .custom { "x-" + $0 })
        #expect(try encoder.encode(["a": ["b": 1]] as JSON) == "x-a.x-b=1")
    }

    @Test(arguments: [
        ("myURLProperty", "my_url_property"),
        ("oneTwoThree", "one_two_three"),
        ("_leading", "_leading"),
        ("trailing_", "trailing_"),
        ("_myProp_", "_my_prop_"),
        ("__a__", "__a__"),
        ("feeFiFoFum", "fee_fi_fo_fum"),
        ("fee_fi_fo_fum", "fee_fi_fo_fum"),
        ("xmlContents", "xml_contents"),
        ("xmlHTTPRequest", "xml_http_request"),
        ("myURL", "my_url"),
        ("aBC", "a_bc"),
        ("a1B", "a1_b"),
        ("", ""),
        ("A", "a"),
        ("URLProperty", "u_rl_property"),  // Foundation never splits before the first character
    ])
    func snakeCaseMatchesJSONEncoder(key: String, expected: String) throws {
        #expect(URLEncodedFormEncoder.KeyEncoding.convertToSnakeCase.encode(key) == expected)
        #expect(try JSONEncoderKeys.snakeCased(key) == expected)
    }

    @Test func theClientsJSONKeyStrategyIsNotAppliedToForms() async throws {
        let mock = MockTransport()
        mock.stub { _, _ in .status(.noContent) }
        var configuration = Networker.Configuration()
        let snakeJSON = JSONEncoder()
        snakeJSON.keyEncodingStrategy = .convertToSnakeCase
        snakeJSON.outputFormatting = .sortedKeys
        configuration.jsonEncoder = snakeJSON
        let networker = Networker(transport: mock, configuration: configuration)
        let person = Person(firstName: "Ann", homeAddress: .init(streetName: "Main"))
        let url = "https://api.example.com/people"

        try await networker.send(Endpoint<Void>(RequestDescription(route: url, method: .post, parameters: person)))
        try await networker.send(
            Endpoint<Void>(
                RequestDescription(
                    route: url, method: .post, parameters: person,
                    encoding: .formURL)))
        try await networker.send(Endpoint<Void>(RequestDescription(route: url, parameters: person)))
        try await networker.send(
            Endpoint<Void>(
                RequestDescription(
                    route: url, method: .post, parameters: person,
                    encoding: .formURL(URLEncodedFormEncoder(keyEncoding: .convertToSnakeCase)))))
        try await networker.send(
            Endpoint<Void>(
                RequestDescription(
                    route: url, parameters: person,
                    encoding: .urlQuery(URLEncodedFormEncoder(keyEncoding: .convertToSnakeCase)))))

        let requests = mock.requests
        #expect(
            requests.map(\.bodyText) == [
                #"{"first_name":"Ann","home_address":{"street_name":"Main"}}"#,
                "firstName=Ann&homeAddress%5BstreetName%5D=Main",
                "",
                "first_name=Ann&home_address%5Bstreet_name%5D=Main",
                "",
            ])
        #expect(
            requests.map { $0.url?.query } == [
                nil, nil,
                "firstName=Ann&homeAddress%5BstreetName%5D=Main",
                nil,
                "first_name=Ann&home_address%5Bstreet_name%5D=Main",
            ])
    }

    // MARK: 7. Small ones

    @Test func aStringIsARoute() throws {
        let request = RequestDescription(route: "https://api.example.com/users")
        #expect(try request.encoded().head.url?.absoluteString == "https://api.example.com/users")
        #expect(try "http://127.0.0.1:8080/a/b?c=d".url().absoluteString == "http://127.0.0.1:8080/a/b?c=d")
        // swift-foundation's `URL(string:)` escapes what a URL cannot hold, as read on Linux;
        // Apple's Foundation escapes by the rules of the system's version.
        try expectOnLinux("URL(string:) as swift-foundation on Linux escapes") {
            let url = try "https://x.io/100% a".url()
            #expect(url.absoluteString == "https://x.io/100%25%20a")
        }
    }

    @Test(arguments: [
        "/users", "api.example.com/users", "", "http://", "not a url", "https:///path", "mailto:ann@example.com",
    ])
    func aStringThatIsNotAnAbsoluteURLFailsAtSendTime(route: String) async {
        let mock = MockTransport()
        mock.stub { _, _ in .status(.ok) }
        do {
            try await Networker(transport: mock).send(Endpoint<Void>(RequestDescription(route: route)))
            Issue.record("\(route) was sent")
        } catch {
            #expect(error.kind == .invalidURL)
            #expect(error.underlying as? URLRouteError == .invalidURL(base: route, path: ""))
        }
        #expect(mock.requests.isEmpty)
    }

    private struct UserDTO: Codable, Sendable, Equatable {
        let name: String
        let age: Int
    }

    @Test func mockResponseJSONTakesAnyEncodable() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/users/1", with: .json(UserDTO(name: "Ann", age: 31)))
        mock.stub(.get, "/users/2", with: .json(["name": "Bob", "age": 40]))
        mock.stub(.get, "/users/3", with: .json(UserDTO(name: "Cy", age: 5), status: .created))
        let networker = Networker(transport: mock)
        let first = try await networker.send(
            Endpoint(
                RequestDescription(route: "https://api.example.com/users/1"),
                decoding: UserDTO.self))
        let second = try await networker.send(
            Endpoint(
                RequestDescription(route: "https://api.example.com/users/2"),
                decoding: UserDTO.self))
        let third = try await networker.response(
            for: Endpoint<String>(RequestDescription(route: "https://api.example.com/users/3")))
        #expect(first == UserDTO(name: "Ann", age: 31))
        #expect(second == UserDTO(name: "Bob", age: 40))
        #expect(third.value == #"{"age":5,"name":"Cy"}"#)
        #expect(third.head.status == .created)
        #expect(third.head.headerFields[.contentType] == "application/json")
    }

    @Test func mockResponseJSONOfAnUnencodableValueFailsWhenServed() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/nan", with: .json(["value": Double.nan]))
        let error = await #expect(throws: StrataError.self) {
            try await Networker(transport: mock).send(
                Endpoint<Data>(RequestDescription(route: "https://api.example.com/nan")))
        }
        #expect(error?.kind == .transport)
    }

    @Test func errorStatusComparesWithAnIntegerLiteral() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/users/99", with: .json(["error": "no such user"], status: 404))
        do {
            _ = try await Networker(transport: mock).send(
                Endpoint<JSON>(RequestDescription(route: "https://api.example.com/users/99")))
            Issue.record("a 404 was accepted")
        } catch {
            #expect(error.status == 404)
            #expect(error.status != 500)
            let expected = 404
            #expect(error.statusCode == expected)
            #expect(error.kind == .unacceptableStatus)
        }
    }

    @Test func mixedDictionaryLiteralAsParameters() throws {
        let url = try #require(URL(string: "https://api.example.com/users"))
        let request = RequestDescription(
            route: url, method: .post,
            parameters: ["name": "Ann", "age": 31, "tags": ["a", "b"]])
        let encoded = try request.encoded()
        #expect(Self.body(encoded) == #"{"age":31,"name":"Ann","tags":["a","b"]}"#)
        #expect(encoded.head.headerFields[.contentType] == "application/json")
        // A literal of one value type and an explicit JSON still work as before.
        let homogeneous = try RequestDescription(route: "https://x.io", method: .post, parameters: ["a": "b"]).encoded()
        #expect(Self.body(homogeneous) == #"{"a":"b"}"#)
        let json: JSON = ["n": 1, "s": "t"]
        #expect(
            Self.body(try RequestDescription(route: "https://x.io", method: .post, parameters: json).encoded())
                == #"{"n":1,"s":"t"}"#)
        let none = try RequestDescription(route: "https://x.io", method: .post, parameters: nil).encoded()
        #expect(none.body == nil)
    }
}

/// Foundation's own snake-case conversion, read back from a `JSONEncoder`: the oracle for
/// ``URLEncodedFormEncoder/KeyEncoding/convertToSnakeCase``.
enum JSONEncoderKeys {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private struct OneKey: Encodable {
        let key: String
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(0, forKey: Key(stringValue: key))
        }
    }

    /// `key` as `JSONEncoder` with `.convertToSnakeCase` writes it.
    static func snakeCased(_ key: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let object = try JSONDecoder().decode([String: Int].self, from: encoder.encode(OneKey(key: key)))
        return try #require(object.keys.first)
    }
}
