import Foundation
import HTTPTypes
import OpenAPIRuntime
import Strata
import StrataOpenAPI
import Testing

/// A generated client's transport calls, made by hand, through a `Networker` to the
/// in-process demo server.
@Suite struct NetworkerTransportTests {
    static let annJSON =
        #"{"age":30,"name":"Ann","photos":[{"id":"1-1","ref":"https:\/\/img.example\/ann\/1.jpg"},"#
        + #"{"id":"1-2","ref":"https:\/\/img.example\/ann\/2.jpg"}],"type":0}"#

    @Test func aGetGoesThroughTheMiddlewareWithItsOperationID() async throws {
        try await withDemoServer { server, transport in
            let recorder = RecordingStep()
            let client = NetworkerTransport(Networker(transport: transport, middleware: [recorder]))
            let (response, body) = try await client.send(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/users/1"), body: nil,
                baseURL: server.baseURL, operationID: "getUser")
            #expect(response.status == .ok)
            #expect(response.headerFields[.contentType] == "application/json")
            let responseBody = try #require(body)
            #expect(responseBody.iterationBehavior == .single)
            #expect(try await String(collecting: responseBody, upTo: 1 << 20) == Self.annJSON)
            #expect(
                recorder.calls == [
                    SeenCall(operationID: "getUser", logMetadata: "getUser", attempt: 1, path: "/users/1")
                ])
        }
    }

    @Test func aBaseURLWithAPathPrefixesTheRequestPath() async throws {
        try await withDemoServer { server, transport in
            let recorder = RecordingStep()
            let client = NetworkerTransport(Networker(transport: transport, middleware: [recorder]))
            let (response, body) = try await client.send(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/2?unused=1"), body: nil,
                baseURL: server.baseURL.appendingPathComponent("users/"), operationID: "getUser")
            #expect(response.status == .ok)
            #expect(
                try await String(collecting: try #require(body), upTo: 1 << 20).hasPrefix(#"{"age":25,"name":"Bob""#))
            #expect(recorder.calls.map(\.path) == ["/users/2?unused=1"])
        }
    }

    @Test func everyStatusIsAResponseWithItsBody() async throws {
        try await withDemoServer { server, transport in
            let client = NetworkerTransport(Networker(transport: transport))
            let (response, body) = try await client.send(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/users/99"), body: nil,
                baseURL: server.baseURL, operationID: "getUser")
            #expect(response.status.code == 404)
            #expect(try await String(collecting: try #require(body), upTo: 1024) == #"{"error":"no user with id 99"}"#)
        }
    }

    @Test func aRequestBodyStreamsToTheServer() async throws {
        try await withDemoServer { server, transport in
            let client = NetworkerTransport(Networker(transport: transport))
            let (stream, continuation) = AsyncThrowingStream<HTTPBody.ByteChunk, any Error>.makeStream()
            let json = #"{"age":33,"name":"Yan","photos":[],"type":1}"#
            for byte in json.utf8 { continuation.yield([byte]) }
            continuation.finish()
            var request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/user/register")
            request.headerFields[.contentType] = "application/json"
            let (response, body) = try await client.send(
                request, body: HTTPBody(stream, length: .unknown), baseURL: server.baseURL,
                operationID: "registerUser")
            #expect(response.status == .created)
            #expect(response.headerFields[.location] == "/users/7")
            #expect(try await String(collecting: try #require(body), upTo: 1024) == json)
        }
    }

    @Test func aResponseWithoutABodyHasNone() async throws {
        try await withDemoServer { server, transport in
            let client = NetworkerTransport(Networker(transport: transport))
            let (created, _) = try await client.send(
                HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/feeds"), body: nil,
                baseURL: server.baseURL, operationID: "createFeed")
            #expect(created.status == .created)
            let (response, body) = try await client.send(
                HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/feeds/1/outage"), body: nil,
                baseURL: server.baseURL, operationID: "startOutage")
            #expect(response.status == .noContent)
            #expect(body == nil)
        }
    }

    @Test func aMultipleIterationBodyIsRetriedAfter503AndASingleOneIsNot() async throws {
        try await withDemoServer { server, transport in
            let recorder = RecordingStep()
            let networker = Networker(
                transport: transport,
                middleware: [
                    RetryMiddleware(policy: RetryPolicy(maxAttempts: 3, maxBackoff: .milliseconds(20))), recorder,
                ])
            let client = NetworkerTransport(networker)
            let payload = Array(repeating: UInt8(ascii: "x"), count: 1000)

            let (retried, retriedBody) = try await client.send(
                HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/flaky/multiple"),
                body: HTTPBody(payload), baseURL: server.baseURL, operationID: "putFlaky")
            #expect(retried.status == .ok)
            #expect(
                try await String(collecting: try #require(retriedBody), upTo: 1024) == #"{"attempt":3,"bytes":1000}"#)
            #expect(recorder.calls.map(\.attempt) == [1, 2, 3])
            #expect(Set(recorder.calls.map(\.operationID)) == ["putFlaky"])

            let (stream, continuation) = AsyncThrowingStream<HTTPBody.ByteChunk, any Error>.makeStream()
            continuation.yield(payload[..<500])
            continuation.yield(payload[500...])
            continuation.finish()
            let (refused, refusedBody) = try await client.send(
                HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/flaky/single"),
                body: HTTPBody(stream, length: .known(1000)), baseURL: server.baseURL, operationID: "putFlaky")
            #expect(refused.status.code == 503)
            #expect(
                try await String(collecting: try #require(refusedBody), upTo: 1024)
                    == #"{"error":"temporarily unavailable (call 1 of 2 that fail)"}"#)
            #expect(recorder.calls.map(\.attempt) == [1, 2, 3, 1])

            for (name, calls) in [("multiple", 3), ("single", 1)] {
                let (_, countBody) = try await client.send(
                    HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/flaky/\(name)"), body: nil,
                    baseURL: server.baseURL, operationID: "getFlakyCalls")
                #expect(try await String(collecting: try #require(countBody), upTo: 1024) == #"{"calls":\#(calls)}"#)
            }
        }
    }

    @Test func strataErrorsReachTheCallerIntact() async throws {
        var configuration = Networker.Configuration()
        configuration.timeout = .seconds(5)
        let client = NetworkerTransport(Networker(transport: FailingTransport(), configuration: configuration))
        let error = await #expect(throws: StrataError.self) {
            try await client.send(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x"), body: nil,
                baseURL: try #require(URL(string: "http://127.0.0.1:9")), operationID: "getX")
        }
        #expect(error?.kind == .transport)
        #expect(error?.transportError?.kind == .connectionRefused)
        #expect(error?.request?.path == "/x")
        #expect(error?.request?.authority == "127.0.0.1:9")

        let relative = await #expect(throws: StrataError.self) {
            try await client.send(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x"), body: nil,
                baseURL: try #require(URL(string: "/relative")), operationID: "getX")
        }
        #expect(relative?.kind == .invalidURL)
        #expect(relative?.underlying as? URLRouteError == .invalidURL(base: "/relative", path: "/x"))
    }
}

/// A transport that refuses every connection.
struct FailingTransport: Transport {
    func send(
        _ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?
    ) async throws -> (HTTPResponse, MessageBody?) {
        throw TransportError(.connectionRefused)
    }
}
