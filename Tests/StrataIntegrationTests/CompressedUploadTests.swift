import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Strata
import StrataCompression
import StrataTestServer
import StrataTestSupport
import StrataURLSession
import Testing

/// Compressed uploads over both transports to an in-process server on 127.0.0.1 that
/// inflates what it receives and answers its SHA-256: the 10 MB body arrives whole, a small
/// one arrives as it was, and a server that refuses gzip is a typed error.
@Suite(.runsAlone) struct CompressedUploadTests {
    /// What the server saw.
    struct Received: Codable, Sendable, Equatable {
        /// `Content-Encoding`, or `identity`.
        var coding: String
        /// The body's bytes as they arrived.
        var wireBytes: Int
        /// The bytes after inflating.
        var bytes: Int
        /// The SHA-256 of the inflated bytes, in hex.
        var sha256: String
        /// The request's `Content-Length`, if any.
        var contentLength: Int?
    }

    /// `POST /inflate` answers ``Received``; `POST /inflate/no-gzip` answers `415` with
    /// `Accept-Encoding: identity` to a body with a `Content-Encoding`, else as `/inflate`.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Sendable static func routes(_ router: Router<BasicRequestContext>) {
        router.post("inflate") { request, _ in try json(await received(request)) }
        router.post("inflate/no-gzip") { request, _ -> Response in
            if request.headers[.contentEncoding] != nil {
                for try await _ in request.body {}
                return Response(
                    status: .unsupportedMediaType, headers: [.acceptEncoding: "identity"],
                    body: .init(byteBuffer: ByteBuffer(string: "gzip not taken here")))
            }
            return try json(await received(request))
        }
    }

    /// `answer` as a JSON response.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func json(_ answer: Received) throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(answer))))
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func received(_ request: Request) async throws -> Received {
        let coding = request.headers[.contentEncoding] ?? "identity"
        var wire = 0
        var inflater = try GzipInflater()
        var plain = SHA256()
        for try await chunk in request.body {
            wire += chunk.readableBytes
            if coding == "gzip" {
                try inflater.inflate(chunk)
            } else {
                chunk.withUnsafeReadableBytes { plain.update(bufferPointer: $0) }
            }
        }
        let sha = coding == "gzip" ? try inflater.finish() : GzipInflater.hex(plain.finalize())
        return Received(
            coding: coding, wireBytes: wire, bytes: coding == "gzip" ? inflater.count : wire, sha256: sha,
            contentLength: request.headers[.contentLength].flatMap { Int($0) })
    }

    /// 10 MB of text that compresses as logs do (words from a small vocabulary, seeded).
    static let tenMB: Data = {
        var generator = SplitMix64(seed: 51)
        let words = ["strata", "upload", "gzip", "event", "user", "id", "42", "ok", "latency", "ms", "\n", "{", "}"]
        var text = [UInt8]()
        text.reserveCapacity(10_000_000)
        while text.count < 10_000_000 {
            text.append(contentsOf: words[Int(generator.next() % UInt64(words.count))].utf8)
            text.append(0x20)
        }
        return Data(text.prefix(10_000_000))
    }()

    static func sha256(_ data: Data) -> String { GzipInflater.hex(SHA256.hash(data: data)) }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func endpoint(_ server: TestServer, _ path: String, body: Strata.RequestBody) -> Endpoint<Received> {
        Endpoint(
            RequestDescription(route: server.baseURL.absoluteString + path, method: .post, body: body),
            decoding: Received.self)
    }

    /// Runs `body` with a server of ``routes`` and a client over a fresh transport of `kind`
    /// with `step`.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func with(
        _ kind: TransportKind, _ step: RequestCompressionMiddleware = RequestCompressionMiddleware(),
        _ body: (Networker, TestServer) async throws -> Void
    ) async throws {
        try await TestServer.with(configure: routes) { server in
            try await kind.with { transport in
                try await body(Networker(transport: transport, middleware: [step]), server)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func tenMegabytesArriveWholeAndSmaller(_ kind: TransportKind) async throws {
        try await Self.with(kind) { networker, server in
            let result = try await networker.response(
                for: Self.endpoint(server, "/inflate", body: .data(Self.tenMB, contentType: "text/plain")))
            let received = result.value
            #expect(received.coding == "gzip")
            #expect(received.bytes == 10_000_000)
            #expect(received.sha256 == Self.sha256(Self.tenMB))
            let report = try #require(result.requestCompression)
            #expect(report.bytesRead == 10_000_000)
            #expect(report.bytesSent == Int64(received.wireBytes))
            #expect(received.wireBytes < 10_000_000 / 3)
            switch kind {
            case .asyncHTTPClient: #expect(received.contentLength == nil)  // chunked
            case .urlSession: #expect(received.contentLength == received.wireBytes)  // collected first
            }
        }
    }

    /// A file body goes compressed too: on URLSession it is then read and collected, not sent
    /// from the file.
    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aFileBodyArrivesWhole(_ kind: TransportKind) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("strata-gzip-\(UUID()).txt")
        try Self.tenMB.prefix(3_000_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await Self.with(kind) { networker, server in
            let received = try await networker.send(Self.endpoint(server, "/inflate", body: .file(file)))
            #expect(received.coding == "gzip")
            #expect(received.bytes == 3_000_000)
            #expect(received.sha256 == Self.sha256(Self.tenMB.prefix(3_000_000)))
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aBodyUnderTheThresholdArrivesAsItWas(_ kind: TransportKind) async throws {
        try await Self.with(kind) { networker, server in
            let small = Self.tenMB.prefix(1023)
            let result = try await networker.response(
                for: Self.endpoint(server, "/inflate", body: .data(small, contentType: "text/plain")))
            #expect(
                result.value
                    == Received(
                        coding: "identity", wireBytes: 1023, bytes: 1023, sha256: Self.sha256(small),
                        contentLength: 1023))
            #expect(result.requestCompression == nil)
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aServerThatRefusesGzipIsATypedError(_ kind: TransportKind) async throws {
        try await Self.with(kind) { networker, server in
            let body = Strata.RequestBody.data(Self.tenMB.prefix(100_000), contentType: "text/plain")
            do {
                _ = try await networker.send(Self.endpoint(server, "/inflate/no-gzip", body: body))
                Issue.record("the refused upload succeeded")
            } catch let error as StrataError {
                #expect(error.kind == .requestCompressionRefused)
                #expect(error.statusCode == 415)
                #expect(
                    error.underlying as? RequestCompressionRefusal
                        == RequestCompressionRefusal(contentCoding: "gzip", acceptedCodings: ["identity"]))
                #expect(error.bodySnippet == "gzip not taken here")
                #expect(error.requestCompression?.refused == true)
            }
            // The endpoint can say so, and then it goes through.
            let plain = try await networker.send(
                Self.endpoint(server, "/inflate/no-gzip", body: body).requestCompression(.never))
            #expect(plain.coding == "identity")
            #expect(plain.sha256 == Self.sha256(Self.tenMB.prefix(100_000)))
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aRefusedBodyIsResentUncompressedWhenAsked(_ kind: TransportKind) async throws {
        try await Self.with(kind, RequestCompressionMiddleware(onRefusal: .resendUncompressed)) { networker, server in
            let source = Self.tenMB.prefix(100_000)
            let result = try await networker.response(
                for: Self.endpoint(server, "/inflate/no-gzip", body: .data(source, contentType: "text/plain")))
            #expect(result.value.coding == "identity")
            #expect(result.value.contentLength == 100_000)
            #expect(result.value.sha256 == Self.sha256(source))
            #expect(result.requestCompression?.refused == true)
            #expect(result.requestCompression?.resentUncompressed == true)
        }
    }

    /// URLSession collects a compressed body in memory before it sends it: past its
    /// `streamedBodyLimit` (in compressed bytes) the call fails typed, before anything is sent.
    @Test
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func urlSessionRefusesACompressedBodyPastItsLimit() async throws {
        var generator = SplitMix64(seed: 7)
        let noise = Data((0..<2_000_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        try await TestServer.with(configure: Self.routes) { server in
            let networker = Networker(
                transport: URLSessionTransport(streamedBodyLimit: 1 << 20),
                middleware: [RequestCompressionMiddleware()])
            do {
                _ = try await networker.send(
                    Self.endpoint(server, "/inflate", body: .data(noise, contentType: "application/octet-stream")))
                Issue.record("a compressed body past the limit was sent")
            } catch let error as StrataError {
                #expect(error.kind == .transport)
                #expect(error.transportError?.kind == .invalidRequest)
                #expect(error.transportError?.underlying as? MessageBodyError == .tooLarge(limit: 1 << 20))
            }
        }
    }
}
