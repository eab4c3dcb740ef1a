import Foundation
import HTTPTypes
import Testing

@testable import Strata
@testable import StrataCore

private func bodyString(_ request: EncodedRequest) -> String? {
    request.body?.bufferedData.map { String(decoding: $0, as: UTF8.self) }
}

@Suite struct RequestEncodingTests {
    @Test func jsonIsTheDefaultAndSetsContentType() throws {
        let request = RequestDescription(
            route: RegistrationRoute.register, method: .post,
            parameters: ["login": "ann", "age": 3, "tags": ["a"]] as JSON)
        let encoded = try request.encoded()
        #expect(encoded.head.method == .post)
        #expect(encoded.head.url?.absoluteString == "http://example.com/user/register")
        #expect(encoded.head.headerFields[.contentType] == "application/json")
        #expect(bodyString(encoded) == #"{"age":3,"login":"ann","tags":["a"]}"#)
    }

    @Test func encodableModelsAreParameters() throws {
        let entry = PhotoEntry(id: "p/1", ref: "r")
        let encoded = try RequestDescription(route: RegistrationRoute.register, method: .put, parameters: entry)
            .encoded()
        #expect(bodyString(encoded) == #"{"id":"p\/1","ref":"r"}"#)
    }

    @Test func appModelsAreSentAsTheirDTO() throws {
        let photo = Photo(id: "p", image: "i")
        let viaDTO = try RequestDescription(route: RegistrationRoute.register, model: photo).encoded()
        #expect(bodyString(viaDTO) == #"{"id":"p","ref":"i"}"#)
        let viaRaw = try RequestDescription(route: RegistrationRoute.register, raw: PhotoEntry(id: "q", ref: "j"))
            .encoded()
        #expect(bodyString(viaRaw) == #"{"id":"q","ref":"j"}"#)
        #expect(viaRaw.head.method == .post)
    }

    @Test func injectedEncoderIsUsed() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        struct Body: Encodable, Sendable { let firstName: String }
        let encoded = try RequestDescription(
            route: RegistrationRoute.register, method: .post,
            parameters: Body(firstName: "A")
        ).encoded(jsonEncoder: encoder)
        #expect(bodyString(encoded) == #"{"first_name":"A"}"#)
    }

    @Test func emptyParametersGiveAnEmptyObjectBody() throws {
        let encoded = try RequestDescription(route: RegistrationRoute.register, method: .post, parameters: [:] as JSON)
            .encoded()
        #expect(bodyString(encoded) == "{}")
    }

    @Test func noParametersNoBody() throws {
        let encoded = try RequestDescription(route: RegistrationRoute.user("1")).encoded()
        #expect(encoded.body == nil)
        #expect(encoded.head.headerFields[.contentType] == nil)
        #expect(encoded.head.method == .get)
    }

    @Test func jsonBodyOnGetIsAnError() {
        let request = RequestDescription(
            route: RegistrationRoute.auth, method: .get, parameters: ["a": 1] as JSON,
            encoding: .json)
        #expect(throws: ParameterEncodingError.self) { try request.encoded() }
    }

    @Test func callerHeadersWinOverEncodingContentType() throws {
        var headers = HTTPFields()
        headers[.contentType] = "application/vnd.api+json"
        headers[.authorization] = "Bearer t"
        let encoded = try RequestDescription(
            route: RegistrationRoute.register, method: .post,
            parameters: ["a": 1] as JSON, headers: headers
        ).encoded()
        #expect(encoded.head.headerFields[.contentType] == "application/vnd.api+json")
        #expect(encoded.head.headerFields[.authorization] == "Bearer t")
    }

    @Test func rawBodyIsSentAsIs() throws {
        let request = RequestDescription(
            route: RegistrationRoute.register, method: .post,
            body: .data(Data("raw".utf8), contentType: "text/plain"))
        let encoded = try request.encoded()
        #expect(bodyString(encoded) == "raw")
        #expect(encoded.head.headerFields[.contentType] == "text/plain")
    }

    @Test func bodyAndBodyParametersConflict() {
        let request = RequestDescription(
            route: RegistrationRoute.register, method: .post,
            parameters: ["a": 1] as JSON,
            body: .data(Data("raw".utf8), contentType: nil))
        #expect(throws: ParameterEncodingError.self) { try request.encoded() }
    }

    @Test func unencodableParametersAreAParameterError() {
        let request = RequestDescription(
            route: RegistrationRoute.register, method: .post,
            parameters: ["x": .double(.nan)] as JSON)
        #expect(throws: ParameterEncodingError.self) { try request.encoded() }
    }

    @Test func badRouteSurfacesTheRouteError() {
        struct Broken: URLRouteProvider {
            func url() throws -> URL { try URL(string: "") + "/x" }
        }
        #expect(throws: URLRouteError.missingBaseURL(path: "/x")) { try RequestDescription(route: Broken()).encoded() }
    }
}

@Suite struct QueryAndFormRequestTests {
    @Test func queryMergesWithExistingQuery() throws {
        let route = try URL(string: "https://x.io") + "/search?lang=en"
        let request = RequestDescription(
            route: route, parameters: ["q": "a b", "page": 2] as JSON, encoding: .urlQuery)
        let encoded = try request.encoded()
        #expect(encoded.head.url?.absoluteString == "https://x.io/search?lang=en&page=2&q=a%20b")
        #expect(encoded.body == nil)
    }

    @Test func emptyQueryParametersLeaveTheURLAlone() throws {
        let route = try URL(string: "https://x.io") + "/search"
        let encoded = try RequestDescription(route: route, parameters: [:] as JSON, encoding: .urlQuery).encoded()
        #expect(encoded.head.url?.absoluteString == "https://x.io/search")
    }

    @Test func queryOptionsReachTheURL() throws {
        let route = try URL(string: "https://x.io") + "/s"
        let request = RequestDescription(
            route: route, parameters: ["id": [1, 2]] as JSON,
            encoding: .urlQuery(URLEncodedFormEncoder(arrayEncoding: .noBrackets)))
        #expect(try request.encoded().head.url?.absoluteString == "https://x.io/s?id=1&id=2")
    }

    @Test func formBodyHasItsContentType() throws {
        let request = RequestDescription(
            route: RegistrationRoute.auth, method: .post,
            parameters: ["login": "ann", "password": "p@ss word"] as JSON,
            encoding: .formUrl)
        let encoded = try request.encoded()
        #expect(encoded.head.headerFields[.contentType] == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(bodyString(encoded) == "login=ann&password=p%40ss%20word")
        #expect(encoded.head.url?.absoluteString == "http://example.com/user/auth")
    }

    @Test func formAndQueryRejectTopLevelArrays() {
        let request = RequestDescription(
            route: RegistrationRoute.auth, method: .post, parameters: [1, 2] as JSON, encoding: .formURL)
        #expect(throws: ParameterEncodingError.self) { try request.encoded() }
    }
}
