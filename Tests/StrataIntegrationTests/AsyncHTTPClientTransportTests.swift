import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOPosix
import StrataTestServer
import StrataTestSupport
import Testing

@testable import StrataAsyncHTTPClient

@Suite("AsyncHTTPClientTransport against the in-process server", .isTimed)
struct AsyncHTTPClientTransportTests {
    // MARK: The event loop group

    /// Every client the transport makes runs on SwiftNIO's POSIX sockets, on every platform
    /// (AsyncHTTPClient's default on Apple platforms would be Network.framework).
    @Test func clientsItMakesRunOnTheSharedPOSIXGroup() async throws {
        let plain = AsyncHTTPClientTransport()
        let trusting = try AsyncHTTPClientTransport(trust: ServerTrust(default: TrustPolicy(minimumVersion: .tls13)))
        #expect(plain.client.eventLoopGroup === MultiThreadedEventLoopGroup.singleton)
        #expect(trusting.client.eventLoopGroup === MultiThreadedEventLoopGroup.singleton)
        #expect(AsyncHTTPClientTransport.eventLoopGroup === MultiThreadedEventLoopGroup.singleton)
        try await plain.shutdown()
        try await trusting.shutdown()
    }

    // MARK: Requests and bodies

    @Test func getEchoesMethodPathQueryAndHeaders() async throws {
        try await withTransport { transport, server in
            let testField = try #require(HTTPField.Name("X-Strata-Test"))
            var fields = HTTPFields()
            fields[.accept] = "application/json"
            fields.append(HTTPField(name: testField, value: "one"))
            fields.append(HTTPField(name: testField, value: "two"))
            let request = server.request(.get, "/echo/items/7?page=2&tag=a%20b", fields)

            let (response, body) = try await transport.send(request, body: nil, deadline: inSeconds(5))

            #expect(response.status == .ok)
            #expect(response.headerFields[.contentType] == "application/json")
            let reply = try await decodeEcho(body)
            #expect(reply.method == "GET")
            #expect(reply.path == "/echo/items/7")
            #expect(reply.query == "page=2&tag=a%20b")
            #expect(
                reply.headers == [
                    "accept": "application/json",
                    "accept-encoding": "deflate, gzip",  // added by AsyncHTTPClient's decompression
                    "x-strata-test": "one, two",
                ])
            #expect(reply.body == "")
        }
    }

    @Test func postsAnInMemoryBodyByteForByte() async throws {
        try await withTransport { transport, server in
            let bytes = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 * 7) })
            var fields = HTTPFields()
            fields[.contentType] = "application/octet-stream"

            let (_, body) = try await transport.send(
                server.request(.post, "/echo/upload", fields), body: MessageBody(bytes), deadline: inSeconds(5))

            let reply = try await decodeEcho(body)
            #expect(reply.method == "POST")
            #expect(reply.bodyData == bytes)
            #expect(reply.headers["content-length"] == "3000")
            #expect(reply.headers["content-type"] == "application/octet-stream")
            #expect(reply.headers["transfer-encoding"] == nil)
        }
    }

    @Test func streamsABodyOfKnownLengthWithContentLength() async throws {
        try await withTransport { transport, server in
            let chunks = makeChunks()
            let expected = chunks.reduce(into: Data()) { $0.append($1) }
            let body = MessageBody(length: Int64(expected.count)) { chunkStream(chunks) }

            let (_, responseBody) = try await transport.send(
                server.request(.put, "/echo/stream"), body: body, deadline: inSeconds(5))

            let reply = try await decodeEcho(responseBody)
            #expect(reply.method == "PUT")
            #expect(reply.bodyData == expected)
            #expect(reply.headers["content-length"] == "\(expected.count)")
            #expect(reply.headers["transfer-encoding"] == nil)
        }
    }

    @Test func streamsABodyOfUnknownLengthChunked() async throws {
        try await withTransport { transport, server in
            let chunks = makeChunks()
            let expected = chunks.reduce(into: Data()) { $0.append($1) }
            let body = MessageBody(length: nil, streaming: chunkStream(chunks))

            let (_, responseBody) = try await transport.send(
                server.request(.post, "/echo/stream"), body: body, deadline: inSeconds(5))

            let reply = try await decodeEcho(responseBody)
            #expect(reply.bodyData == expected)
            #expect(reply.headers["content-length"] == nil)
            #expect(reply.headers["transfer-encoding"] == "chunked")
        }
    }

    // MARK: Responses

    @Test func readsAStreamedResponseChunkByChunk() async throws {
        try await withTransport { transport, server in
            let (response, streamed) = try await transport.send(
                server.request(.get, "/stream/50"), body: nil, deadline: inSeconds(5))

            #expect(response.status == .ok)
            let body = try #require(streamed)
            #expect(body.length == nil)
            #expect(!body.isReplayable)
            var received = Data()
            var chunkCount = 0
            for try await chunk in body {
                chunkCount += 1
                received.append(chunk)
            }
            let expected = (0..<50).reduce(into: Data()) { data, index in
                data.append(Data(repeating: UInt8(index), count: 1024))
            }
            #expect(received.count == 50 * 1024)
            #expect(received == expected)
            #expect(chunkCount > 1)
            await #expect(throws: MessageBodyError.alreadyConsumed) { _ = try await body.collect(upTo: 1 << 20) }
        }
    }

    @Test func reportsTheContentLength() async throws {
        try await withTransport { transport, server in
            let (_, sized) = try await transport.send(
                server.request(.get, "/bytes/1000"), body: nil, deadline: inSeconds(5))

            let body = try #require(sized)
            #expect(body.length == 1000)
            let data = try await body.collect(upTo: 1000)
            #expect(data == Data((0..<1000).map { UInt8(truncatingIfNeeded: $0) }))
        }
    }

    @Test func headAndNoContentResponsesHaveNoBody() async throws {
        try await withTransport { transport, server in
            let (head, headBody) = try await transport.send(
                server.request(.head, "/json/user/1"), body: nil, deadline: inSeconds(5))
            #expect(head.status == .ok)
            #expect(head.headerFields[.contentType] == "application/json")
            #expect(headBody == nil)

            for code in [204, 304] {
                let (response, body) = try await transport.send(
                    server.request(.get, "/status/\(code)"), body: nil, deadline: inSeconds(5))
                #expect(response.status.code == code)
                #expect(body == nil)
            }

            let (notFound, notFoundBody) = try await transport.send(
                server.request(.get, "/status/404"), body: nil, deadline: inSeconds(5))
            #expect(notFound.status == .notFound)
            #expect(try await notFoundBody?.collect(upTo: 100) == Data("status 404".utf8))
        }
    }

    @Test func returnsRedirectsForTheNetworkerToFollow() async throws {
        try await withTransport { transport, server in
            let (response, body) = try await transport.send(
                server.request(.get, "/redirect"), body: nil, deadline: inSeconds(5))

            #expect(response.status == .found)
            #expect(response.headerFields[.location] == "/json/user/1")
            #expect(try await body?.collect(upTo: 1 << 16) == Data())
        }
    }

    @Test func decompressesGzipResponsesByDefault() async throws {
        try await withTransport(configure: addGzipRoute) { transport, server in
            let (response, compressed) = try await transport.send(
                server.request(.get, "/gzip"), body: nil, deadline: inSeconds(5))

            #expect(response.headerFields[.contentEncoding] == "gzip")
            let body = try #require(compressed)
            #expect(body.length == nil)  // Content-Length counts the compressed bytes
            let text = String(decoding: try await body.collect(upTo: 1 << 16), as: UTF8.self)
            #expect(text == String(repeating: "Strata decompresses gzip responses. ", count: 4))
        }
    }

    // MARK: Deadlines and cancellation

    @Test func deadlineWhileWaitingForTheHeadTimesOut() async throws {
        try await withTransport { transport, server in
            let start = ContinuousClock.now
            let error = await #expect(throws: TransportError.self) {
                _ = try await transport.send(
                    server.request(.get, "/hang"), body: nil, deadline: start + .milliseconds(300))
            }
            #expect(error?.kind == .timedOut)
            #expect(error?.underlying as? HTTPClientError == .deadlineExceeded)
            #expect(ContinuousClock.now - start < .seconds(2))
        }
    }

    @Test func bodyReadsAreNotTimedByTheTransport() async throws {
        // AsyncHTTPClient applies the deadline to the head only; the body is bounded by the
        // caller (the Networker cancels the reading task), so no timer runs per read here.
        try await withTransport { transport, server in
            let deadline = ContinuousClock.now + .seconds(2)
            let (response, body) = try await transport.send(
                server.request(.get, "/stall-body"), body: nil, deadline: deadline)
            #expect(response.status == .ok)
            var iterator = try #require(body).makeAsyncIterator()
            #expect(try await iterator.next() == Data("first".utf8))
            let read = Task { try await iterator.next() }
            try await Task.sleep(until: deadline + .milliseconds(500))  // past the deadline, still waiting
            read.cancel()
            await #expect(throws: CancellationError.self) { _ = try await read.value }
        }
    }

    @Test func aDeadlineInThePastTimesOutAtOnce() async throws {
        try await withTransport { transport, server in
            let error = await #expect(throws: TransportError.self) {
                _ = try await transport.send(
                    server.request(.get, "/bytes/1"), body: nil, deadline: ContinuousClock.now - .seconds(1))
            }
            #expect(error?.kind == .timedOut)
        }
    }

    @Test func cancellingWhileWaitingForTheHeadThrowsCancellationError() async throws {
        try await withTransport { transport, server in
            let request = server.request(.get, "/hang")
            let task = Task { try await transport.send(request, body: nil, deadline: nil) }
            try await Task.sleep(for: .milliseconds(300))

            let cancelledAt = ContinuousClock.now
            task.cancel()
            await #expect(throws: CancellationError.self) { _ = try await task.value }
            #expect(ContinuousClock.now - cancelledAt < .seconds(3))  // never, without cancellation
        }
    }

    @Test func cancellingWhileReadingTheBodyThrowsCancellationError() async throws {
        try await withTransport { transport, server in
            let request = server.request(.get, "/stall-body")
            let task = Task {
                let (_, body) = try await transport.send(request, body: nil, deadline: nil)
                return try await body?.collect(upTo: 1 << 16)
            }
            try await Task.sleep(for: .milliseconds(500))

            let cancelledAt = ContinuousClock.now
            task.cancel()
            await #expect(throws: CancellationError.self) { _ = try await task.value }
            #expect(ContinuousClock.now - cancelledAt < .seconds(3))  // never, without cancellation
        }
    }

    // MARK: Failures

    @Test func aClosedPortIsRefusedAtOnce() async throws {
        let authority = try await closedPortAuthority()
        let transport = AsyncHTTPClientTransport()
        let start = ContinuousClock.now
        let error = await #expect(throws: TransportError.self) {
            _ = try await transport.send(
                HTTPRequest(method: .get, scheme: "http", authority: authority, path: "/"),
                body: nil, deadline: inSeconds(30))
        }
        try await transport.shutdown()
        #expect(error?.kind == .connectionRefused)
        #expect(ContinuousClock.now - start < .seconds(10))  // not at the deadline
    }

    @Test func aClosedPortIsRefusedWhenTheClientRetriesConnectsUntilTheDeadline() async throws {
        let authority = try await closedPortAuthority()
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init())
        let transport = AsyncHTTPClientTransport(client: client)
        let error = await #expect(throws: TransportError.self) {
            _ = try await transport.send(
                HTTPRequest(method: .get, scheme: "http", authority: authority, path: "/"),
                body: nil, deadline: ContinuousClock.now + .milliseconds(500))
        }
        try await client.shutdown()
        #expect(error?.kind == .connectionRefused)
    }

    @Test func anUnknownHostIsNotFound() async throws {
        let transport = AsyncHTTPClientTransport()
        let error = await #expect(throws: TransportError.self) {
            _ = try await transport.send(
                HTTPRequest(method: .get, scheme: "http", authority: "strata-test.invalid", path: "/"),
                body: nil, deadline: inSeconds(5))
        }
        try await transport.shutdown()
        #expect(error?.kind == .hostNotFound)
    }

    @Test func aConnectionClosedMidBodyIsLost() async throws {
        try await withTransport(configure: addTruncatedRoute) { transport, server in
            let (response, truncated) = try await transport.send(
                server.request(.get, "/truncated"), body: nil, deadline: inSeconds(5))
            #expect(response.status == .ok)
            let body = try #require(truncated)
            #expect(body.length == 100)
            let error = await #expect(throws: TransportError.self) { _ = try await body.collect(upTo: 100) }
            #expect(error?.kind == .connectionLost)  // NIO's HTTPParserError.invalidEOFState
        }
    }

    @Test func requestsAsyncHTTPClientCannotSendAreInvalid() async throws {
        try await withTransport { transport, server in
            let noAuthority = HTTPRequest(method: .get, scheme: "http", authority: nil, path: "/")
            let missing = await #expect(throws: TransportError.self) {
                _ = try await transport.send(noAuthority, body: nil, deadline: nil)
            }
            #expect(missing?.kind == .invalidRequest)

            let ftp = HTTPRequest(method: .get, scheme: "ftp", authority: server.authority, path: "/")
            let unsupported = await #expect(throws: TransportError.self) {
                _ = try await transport.send(ftp, body: nil, deadline: inSeconds(5))
            }
            #expect(unsupported?.kind == .invalidRequest)
        }
    }

    @Test func tlsToAPlainHTTPServerIsATLSFailure() async throws {
        try await withTransport { transport, server in
            let request = HTTPRequest(method: .get, scheme: "https", authority: server.authority, path: "/bytes/1")
            let error = await #expect(throws: TransportError.self) {
                _ = try await transport.send(request, body: nil, deadline: inSeconds(5))
            }
            #expect(error?.kind == .tls)
        }
    }

    // MARK: Ownership

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func anOwnedClientShutsDownOnce() async throws {
        try await TestServer.with { server in
            let transport = AsyncHTTPClientTransport()
            #expect(transport.isOwningClient)
            let (response, _) = try await transport.send(
                server.request(.get, "/bytes/4"), body: nil, deadline: inSeconds(5))
            #expect(response.status == .ok)

            try await transport.shutdown()
            let copy = transport
            try await copy.shutdown()  // the copy shares the client: a no-op now

            let error = await #expect(throws: TransportError.self) {
                _ = try await transport.send(server.request(.get, "/bytes/4"), body: nil, deadline: inSeconds(5))
            }
            #expect(error?.underlying as? HTTPClientError == .alreadyShutdown)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func aBorrowedClientIsLeftRunning() async throws {
        try await TestServer.with { server in
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .strataDefault)
            do {
                let transport = AsyncHTTPClientTransport(client: client)
                #expect(!transport.isOwningClient)
                try await transport.shutdown()

                let (response, body) = try await transport.send(
                    server.request(.get, "/bytes/4"), body: nil, deadline: inSeconds(5))
                #expect(response.status == .ok)
                #expect(try await body?.collect(upTo: 4) == Data([0, 1, 2, 3]))
                try await client.shutdown()
            } catch {
                try? await client.shutdown()
                throw error
            }
        }
    }
}

// MARK: - Helpers

/// Runs `body` with a fresh server and an owned transport, and always shuts both down.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
private func withTransport(
    configure: @Sendable (Router<BasicRequestContext>) -> Void = { _ in },
    _ body: (AsyncHTTPClientTransport, TestServer) async throws -> Void
) async throws {
    try await TestServer.with(configure: configure) { server in
        let transport = AsyncHTTPClientTransport()
        do {
            try await body(transport, server)
            try await transport.shutdown()
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension TestServer {
    /// `127.0.0.1:PORT`.
    fileprivate var authority: String { "\(baseURL.host ?? "127.0.0.1"):\(baseURL.port ?? 0)" }

    /// A request to this server for `pathAndQuery`.
    fileprivate func request(
        _ method: HTTPRequest.Method, _ pathAndQuery: String, _ fields: HTTPFields = [:]
    ) -> HTTPRequest {
        HTTPRequest(method: method, scheme: "http", authority: authority, path: pathAndQuery, headerFields: fields)
    }
}

/// The authority of a port nothing listens on, held closed for the rest of the process
/// so that no other test's server takes it.
func closedPortAuthority() async throws -> String {
    try reservedClosedPort.get().authority
}

private let reservedClosedPort = Result { () throws(ClosedPortError) in try ClosedPort() }

/// A deadline `seconds` from now.
private func inSeconds(_ seconds: Int) -> ContinuousClock.Instant {
    .now + .seconds(seconds)
}

private func decodeEcho(_ body: MessageBody?) async throws -> EchoReply {
    let data = try #require(try await body?.collect(upTo: 1 << 20))
    return try JSONDecoder().decode(EchoReply.self, from: data)
}

/// Five chunks of different sizes, 0 to 4 KiB.
private func makeChunks() -> [Data] {
    [1, 4096, 0, 777, 2048].enumerated().map { index, size in
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &+ index) })
    }
}

private func chunkStream(_ chunks: [Data]) -> AsyncStream<Data> {
    AsyncStream { continuation in
        for chunk in chunks { continuation.yield(chunk) }
        continuation.finish()
    }
}

/// `GET /gzip`: "Strata decompresses gzip responses. " four times, gzip-encoded.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
private func addGzipRoute(_ router: Router<BasicRequestContext>) {
    let gzip: [UInt8] = [
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x0B, 0x2E, 0x29, 0x4A, 0x2C, 0x49,
        0x54, 0x48, 0x49, 0x4D, 0xCE, 0xCF, 0x2D, 0x28, 0x4A, 0x2D, 0x2E, 0x4E, 0x2D, 0x56, 0x48, 0xAF,
        0xCA, 0x2C, 0x50, 0x00, 0xB2, 0x0B, 0xF2, 0xF3, 0x80, 0x5C, 0x3D, 0x85, 0x60, 0x3A, 0xAA, 0x01,
        0x00, 0x2B, 0xA7, 0xBB, 0xD0, 0x90, 0x00, 0x00, 0x00,
    ]
    router.get("gzip") { _, _ in
        Response(
            status: .ok, headers: [.contentType: "text/plain", .contentEncoding: "gzip"],
            body: .init(byteBuffer: ByteBuffer(bytes: gzip)))
    }
}

/// `GET /truncated`: promises 100 bytes, sends 7, then the server drops the connection.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
private func addTruncatedRoute(_ router: Router<BasicRequestContext>) {
    router.get("truncated") { _, _ in
        Response(
            status: .ok, headers: [.contentType: "text/plain", .contentLength: "100"],
            body: .init { writer in
                try await writer.write(ByteBuffer(string: "partial"))
                throw CancellationError()
            })
    }
}
