import Foundation
import HTTPTypes
import Testing

@testable import Strata
@testable import StrataCore

private func response(_ body: String, status: HTTPResponse.Status = .ok) -> RawResponse {
    RawResponse(head: HTTPResponse(status: status), body: Data(body.utf8))
}

@Suite struct EndpointTests {
    let request = RequestDescription(route: RegistrationRoute.user("1"))

    @Test func decodableEndpoint() throws {
        struct Greeting: Decodable, Equatable { let text: String }
        let endpoint = Endpoint(request, decoding: Greeting.self)
        #expect(try endpoint.parse(response(#"{"text":"hi"}"#), JSONDecoder()) == Greeting(text: "hi"))
    }

    @Test func modelEndpointGoesThroughBothLayers() throws {
        let endpoint = Endpoint(request, model: User.self)
        let user = try endpoint.parse(response(ModelLayerTests.userJSON), JSONDecoder())
        #expect(user.name == "Ann")
        #expect(user.photos == [Photo(id: "p1", image: "https://img/1"), Photo(id: "p2", image: "https://img/2")])
    }

    @Test func modelArrayEndpoint() throws {
        let endpoint = Endpoint(request, model: [Photo].self)
        let photos = try endpoint.parse(response(#"[{"id":"a","ref":"1"}]"#), JSONDecoder())
        #expect(photos == [Photo(id: "a", image: "1")])
    }

    @Test func rawEndpoint() throws {
        let endpoint = Endpoint(request, raw: HandMappedEntry.self)
        #expect(try endpoint.parse(response(#"{"n":5}"#), JSONDecoder()).n == 5)
    }

    @Test func jsonDataStringVoidEndpoints() throws {
        #expect(try Endpoint<JSON>(request).parse(response(#"{"a":[1]}"#), JSONDecoder()) == ["a": [1]])
        #expect(try Endpoint<Data>(request).parse(response("\u{1}"), JSONDecoder()) == Data([1]))
        #expect(try Endpoint<String>(request).parse(response("héllo"), JSONDecoder()) == "héllo")
        try Endpoint<Void>(request).parse(response("ignored"), JSONDecoder())
    }

    @Test func mapTransformsTheResult() throws {
        let endpoint = Endpoint(request, model: User.self).map { $0.photos.count }
        #expect(try endpoint.parse(response(ModelLayerTests.userJSON), JSONDecoder()) == 2)
        #expect(try endpoint.encoded().head.url?.absoluteString == "http://example.com/user/1")
    }

    @Test func injectedDecoderIsUsed() throws {
        struct Item: Decodable, Equatable { let firstName: String }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let endpoint = Endpoint(request, decoding: Item.self)
        #expect(try endpoint.parse(response(#"{"first_name":"A"}"#), decoder) == Item(firstName: "A"))
    }

    @Test func nonJSONBodyIsAMappingErrorNamingTheType() {
        let endpoint = Endpoint(request, model: User.self)
        #expect {
            try endpoint.parse(response("<html>oops</html>"), JSONDecoder())
        } throws: { error in
            (error as? MappingError)?.typeName.hasSuffix("UserEntry") == true
        }
    }

    @Test func requestIsInspectableWithoutNetwork() throws {
        var endpoint = Endpoint(
            RequestDescription(
                route: RegistrationRoute.register, method: .post,
                parameters: ["b": 1, "a": 2] as JSON), decoding: JSON.self)
        #expect(try endpoint.encoded().body?.bufferedData == Data(#"{"a":2,"b":1}"#.utf8))
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.sortedKeys, .prettyPrinted]
        endpoint.jsonEncoder = pretty
        #expect(try endpoint.encoded().body?.bufferedData == Data("{\n  \"a\" : 2,\n  \"b\" : 1\n}".utf8))
    }
}

@Suite struct SeedFlowTests {
    @Test func seed003PhotoEndpoint() throws {
        let baseUrl = try #require(URL(string: "https://jsonplaceholder.typicode.com/"))
        let endpoint = try Seed003.Photo.single(by: 5, with: baseUrl)
        #expect(try endpoint.encoded().head.url?.absoluteString == "https://jsonplaceholder.typicode.com/photos/5")
        let body = #"{"id":5,"albumId":1,"title":"t","url":"https://img/5","thumbnailUrl":"https://img/5/t"}"#
        let photo = try endpoint.parse(response(body), JSONDecoder())
        #expect(photo.id == 5 && photo.albumId == 1 && photo.title == "t")
        #expect(photo.thumbnailUrl.absoluteString == "https://img/5/t")
        #expect(throws: MappingError.self) { try endpoint.parse(response(#"{"id":5}"#), JSONDecoder()) }
    }

    @Test func seed002UserFlow() throws {
        let endpoint = Endpoint(RequestDescription(route: RegistrationRoute.user("42")), model: User.self)
        #expect(try endpoint.encoded().head.url?.absoluteString == "http://example.com/user/42")
        let user = try endpoint.parse(response(ModelLayerTests.userJSON), JSONDecoder())
        #expect(user.type == .owner)
        #expect(user.photos.map(\.image) == ["https://img/1", "https://img/2"])
    }
}
