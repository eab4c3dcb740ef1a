import Foundation
import HTTPTypes
import StrataTesting
import Testing

@testable import Strata
@testable import StrataCore

/// The seeds' flows over the mock transport: offline, as seed 003's `MockURLSession`.
@Suite struct MockFlowTests {
    @Test func seed003PhotoLoadedWithAResultCallback() async throws {
        let mock = MockTransport()
        mock.stub(
            .get, "/photos/:id",
            handler: { _, parameters in
                let id = Int(parameters["id"] ?? "") ?? 0
                return .json([
                    "id": .integer(id), "albumId": 3, "title": "Mock \(id)",
                    "url": "https://img/\(id)", "thumbnailUrl": "https://img/\(id)/t",
                ])
            })
        let networker = Networker(transport: mock)
        let endpoint = try Seed003.Photo.single(
            by: 5, with: #require(URL(string: "https://jsonplaceholder.typicode.com/")))
        let result: Result<Seed003.Photo, StrataError> = await withCheckedContinuation { continuation in
            networker.load(endpoint) { result in continuation.resume(returning: result) }
        }
        let photo = try result.get()
        #expect(photo.title == "Mock 5" && photo.albumId == 3)
        #expect(mock.requests.map(\.path) == ["/photos/5"])
    }

    @Test func seed002UserThroughBothLayers() async throws {
        let mock = MockTransport()
        mock.stub(
            .get, "/user/42",
            with: .json([
                "name": "Ann", "age": 31, "type": 1,
                "photos": [["id": "p1", "ref": "r1"], ["id": "p2", "ref": "r2"]],
            ]))
        let user = try await Networker(transport: mock).send(
            Endpoint(RequestDescription(route: RegistrationRoute.user("42")), model: User.self))
        #expect(
            user
                == User(
                    name: "Ann", age: 31, type: .member,
                    photos: [Photo(id: "p1", image: "r1"), Photo(id: "p2", image: "r2")]))
    }

    @Test func registeringAnAppModelSendsItsDTO() async throws {
        let mock = MockTransport()
        mock.stub(.post, "/user/register", with: .status(.created))
        let photo = Photo(id: "p", image: "i")
        try await Networker(transport: mock).send(
            Endpoint<Void>(try RequestDescription(route: RegistrationRoute.register, model: photo)))
        #expect(mock.requests.first?.bodyText == #"{"id":"p","ref":"i"}"#)
        #expect(mock.requests.first?.headerFields[.contentType] == "application/json")
    }

    @Test func unexpectedRequestsFailLoudly() async {
        let networker = Networker(transport: MockTransport())
        let error = await #expect(throws: StrataError.self) {
            try await networker.send(Endpoint<JSON>(RequestDescription(route: RegistrationRoute.auth)))
        }
        #expect(error?.kind == .transport)
        #expect(error?.transportError?.kind == .other)
        #expect(error?.transportError?.underlying is MockTransportError)
    }
}
