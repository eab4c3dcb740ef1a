import Foundation
import HTTPTypes
import OpenAPIRuntime
import Strata
import StrataOpenAPI
import Testing

/// A transport whose exchange the test drives chunk by chunk: it reads the request body,
/// telling the test about each chunk as it arrives, and answers with a body the test
/// writes after the head went back.
struct SteppedTransport: Transport {
    let requestChunks: AsyncStream<String>.Continuation
    let responseChunks: AsyncStream<Data>

    func send(
        _ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?
    ) async throws -> (HTTPResponse, MessageBody?) {
        if let body {
            for try await chunk in body { requestChunks.yield(String(decoding: chunk, as: UTF8.self)) }
        }
        requestChunks.finish()
        return (HTTPResponse(status: .ok), MessageBody(length: nil, streaming: responseChunks))
    }
}

/// Bodies cross `NetworkerTransport` as streams: each step below waits for the other side,
/// so a bridge that collected a body first would never get there (the client's 5-second
/// timeout, or the test's time limit, would fail the test).
@Suite(.timeLimit(.minutes(1))) struct StreamingTests {
    static func networker(_ transport: SteppedTransport) -> NetworkerTransport {
        var configuration = Networker.Configuration()
        configuration.timeout = .seconds(5)
        return NetworkerTransport(Networker(transport: transport, configuration: configuration))
    }

    @Test func theResponseBodyArrivesChunkByChunkAfterTheHead() async throws {
        let (requestChunks, requestContinuation) = AsyncStream<String>.makeStream()
        let (responseChunks, responseContinuation) = AsyncStream<Data>.makeStream()
        let client = Self.networker(
            SteppedTransport(requestChunks: requestContinuation, responseChunks: responseChunks))
        let (response, body) = try await client.send(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/stream"), body: nil,
            baseURL: try #require(URL(string: "http://example.test")), operationID: "stream")
        #expect(response.status == .ok)
        #expect(await Array(requestChunks) == [])
        let responseBody = try #require(body)
        #expect(responseBody.iterationBehavior == .single)
        #expect(responseBody.length == .unknown)

        var iterator = responseBody.makeAsyncIterator()
        responseContinuation.yield(Data("first".utf8))
        #expect(try await iterator.next().map { String(decoding: $0, as: UTF8.self) } == "first")
        responseContinuation.yield(Data("second".utf8))
        #expect(try await iterator.next().map { String(decoding: $0, as: UTF8.self) } == "second")
        responseContinuation.finish()
        #expect(try await iterator.next() == nil)
    }

    @Test func theRequestBodyLeavesChunkByChunk() async throws {
        let (requestChunks, requestContinuation) = AsyncStream<String>.makeStream()
        let (responseChunks, responseContinuation) = AsyncStream<Data>.makeStream()
        responseContinuation.finish()
        let client = Self.networker(
            SteppedTransport(requestChunks: requestContinuation, responseChunks: responseChunks))
        let (upload, uploadContinuation) = AsyncThrowingStream<HTTPBody.ByteChunk, any Error>.makeStream()

        async let sent = client.send(
            HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/upload"),
            body: HTTPBody(upload, length: .known(11)), baseURL: try #require(URL(string: "http://example.test")),
            operationID: "upload")
        var received = requestChunks.makeAsyncIterator()
        uploadContinuation.yield(ArraySlice("hello".utf8))
        #expect(await received.next() == "hello")
        uploadContinuation.yield(ArraySlice(" world".utf8))
        #expect(await received.next() == " world")
        uploadContinuation.finish()
        #expect(await received.next() == nil)
        let (response, body) = try await sent
        #expect(response.status == .ok)
        #expect(try await String(collecting: try #require(body), upTo: 16) == "")
    }
}
