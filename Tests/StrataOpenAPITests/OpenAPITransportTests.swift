import Foundation
import HTTPTypes
import OpenAPIRuntime
import Strata
import StrataOpenAPI
import Testing

/// What a client transport received.
struct ReceivedRequest: Sendable, Equatable {
    var request: HTTPRequest
    var baseURL: String
    var operationID: String
    var body: String?
    var iterationBehavior: IterationBehavior?
}

/// A client transport that records what it receives and answers `200` with `pong` (or
/// throws `error`).
struct RecordingClientTransport: ClientTransport {
    let received = Locked<[ReceivedRequest]>([])
    var error: (any Error & Sendable)?

    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var bodyText: String?
        if let body { bodyText = try await String(collecting: body, upTo: 1024) }
        received.withLock {
            $0.append(
                ReceivedRequest(
                    request: request, baseURL: baseURL.absoluteString, operationID: operationID, body: bodyText,
                    iterationBehavior: body?.iterationBehavior))
        }
        if let error { throw error }
        return (HTTPResponse(status: .ok, headerFields: [.contentType: "text/plain"]), HTTPBody("pong"))
    }

    var requests: [ReceivedRequest] { received.withLock { $0 } }
}

struct TeapotError: Error, Equatable {}

/// OpenAPI client transports as Strata transports.
@Suite struct OpenAPITransportTests {
    @Test func aRequestReachesTheClientTransportSplitIntoBaseURLAndPath() async throws {
        let recorder = RecordingClientTransport()
        let networker = Networker(
            transport: OpenAPITransport(recorder, operationID: { "\($0.method.rawValue) op" }),
            middleware: [HeadersMiddleware([.userAgent: "StrataOpenAPITests"])])
        let endpoint = Endpoint<String>(
            RequestDescription(
                route: try #require(URL(string: "http://example.test:8080/a/b?c=d")), method: .post,
                body: .data(Data("hello".utf8), contentType: "text/plain")))
        let response = try await networker.response(for: endpoint)
        #expect(response.value == "pong")
        #expect(response.head.status == .ok)
        let received = try #require(recorder.requests.first)
        #expect(recorder.requests.count == 1)
        #expect(received.baseURL == "http://example.test:8080")
        #expect(received.request.scheme == nil)
        #expect(received.request.authority == nil)
        #expect(received.request.path == "/a/b?c=d")
        #expect(received.request.method == .post)
        #expect(received.request.headerFields[.userAgent] == "StrataOpenAPITests")
        #expect(received.operationID == "POST op")
        #expect(received.body == "hello")
        #expect(received.iterationBehavior == .multiple)
    }

    @Test func whatTheClientTransportThrowsIsATransportFailure() async throws {
        var recorder = RecordingClientTransport()
        recorder.error = TeapotError()
        let networker = Networker(transport: OpenAPITransport(recorder))
        let error = await #expect(throws: StrataError.self) {
            try await networker.send(
                Endpoint<String>(RequestDescription(route: try #require(URL(string: "http://example.test/tea")))))
        }
        #expect(error?.kind == .transport)
        #expect(error?.transportError?.kind == .other)
        #expect(error?.transportError?.underlying as? TeapotError == TeapotError())
        #expect(recorder.requests.map(\.operationID) == [""])
    }

    /// Both ways at once: a Strata client over an OpenAPI transport that is itself a
    /// Strata client, against the demo server.
    @Test func aNetworkerRunsOverANetworkerTransport() async throws {
        try await withDemoServer { server, transport in
            let inner = RecordingStep()
            let outer = RecordingStep()
            let openAPI = NetworkerTransport(Networker(transport: transport, middleware: [inner]))
            let networker = Networker(
                transport: OpenAPITransport(openAPI, operationID: { _ in "getPhoto" }), middleware: [outer])
            let photo = try await networker.send(
                Endpoint<String>(RequestDescription(route: try server.baseURL + "photos/7")))
            #expect(
                photo
                    == #"{"albumId":1,"id":7,"thumbnailUrl":"https:\/\/img.example\/p\/7-t.jpg","#
                    + #""title":"Photo 7","url":"https:\/\/img.example\/p\/7.jpg"}"#)
            #expect(outer.calls == [SeenCall(operationID: nil, logMetadata: nil, attempt: 1, path: "/photos/7")])
            #expect(
                inner.calls == [
                    SeenCall(operationID: "getPhoto", logMetadata: "getPhoto", attempt: 1, path: "/photos/7")
                ])
        }
    }
}
