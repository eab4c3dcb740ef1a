import Foundation
import Strata
import StrataTestServer
import StrataTestSupport
import Testing

/// Uploads from a file, from `Data` and from an `AsyncSequence`, over both transports,
/// checked byte for byte by the server; a file is sent again after a `307`, a one-shot
/// sequence is not.
@Suite("Uploads", .serialized, .runsAlone)
struct UploadTests {
    /// 8 MiB and 3 bytes of a pattern that repeats every 251 bytes.
    static let bytes: Data = {
        var bytes = [UInt8](repeating: 0, count: 8 * 1024 * 1024 + 3)
        for index in bytes.indices { bytes[index] = UInt8(index % 251) }
        return Data(bytes)
    }()

    static var expected: UploadReceipt {
        var digest = FNV1a()
        digest.add(bytes)
        return UploadReceipt(
            bytes: bytes.count, digest: digest.hex, contentLength: String(bytes.count), transferEncoding: nil)
    }

    static func withFile<T>(_ body: (URL) async throws -> T) async throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-upload-\(UUID().uuidString).bin")
        try bytes.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(url)
    }

    /// Uploads `body` to `target` (`/upload` by default), through
    /// ``Networker/upload(_:progress:)`` when `progress` is given.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func upload(
        _ body: RequestBody, kind: TransportKind,
        target: (TestServer) -> String = { $0.baseURL.absoluteString + "/upload" },
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    )
        async throws -> Result<UploadReceipt, StrataError>
    {
        try await TestServer.with(configure: { UploadRoutes.register(on: $0) }) { server in
            try await kind.with { transport in
                let endpoint = Endpoint(
                    RequestDescription(route: target(server), method: .post, body: body), decoding: UploadReceipt.self)
                let networker = Networker(transport: transport)
                do throws(StrataError) {
                    if let progress { return .success(try await networker.upload(endpoint, progress: progress).value) }
                    return .success(try await networker.send(endpoint))
                } catch {
                    return .failure(error)
                }
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFileStreamsFromDisk(_ kind: TransportKind) async throws {
        let receipt = try await Self.withFile { try await Self.upload(.file($0), kind: kind) }
        #expect(try receipt.get() == Self.expected)
    }

    @Test(arguments: TransportKind.allCases)
    func dataAsItIs(_ kind: TransportKind) async throws {
        let receipt = try await Self.upload(.data(Self.bytes, contentType: "application/octet-stream"), kind: kind)
        #expect(try receipt.get() == Self.expected)
    }

    /// A `307` to `/upload`: the file is opened and sent again.
    @Test(arguments: TransportKind.allCases)
    func aFileFollowsA307(_ kind: TransportKind) async throws {
        let receipt = try await Self.withFile { file in
            try await Self.upload(.file(file), kind: kind) {
                $0.baseURL.absoluteString + "/redirect-to?status=307&location=/upload"
            }
        }
        #expect(try receipt.get() == Self.expected)
    }

    static func chunks() -> AsyncStream<Data> {
        AsyncStream { continuation in
            for start in stride(from: 0, to: bytes.count, by: 100_000) {
                continuation.yield(bytes[start..<min(start + 100_000, bytes.count)])
            }
            continuation.finish()
        }
    }

    /// Chunks of unknown total length: sent chunked on AsyncHTTPClient (collected first on
    /// URLSession, which sends a length).
    @Test(arguments: TransportKind.allCases)
    func aSequenceOfChunks(_ kind: TransportKind) async throws {
        let body = MessageBody(length: nil, streaming: Self.chunks())
        let receipt = try await Self.upload(.stream(body, contentType: "application/octet-stream"), kind: kind).get()
        #expect(receipt.bytes == Self.expected.bytes)
        #expect(receipt.digest == Self.expected.digest)
        #expect(receipt.transferEncoding == (kind == .asyncHTTPClient ? "chunked" : nil))
    }

    /// A one-shot sequence cannot follow a `307`: the redirect step refuses, naming why.
    @Test(arguments: TransportKind.allCases)
    func aOneShotSequenceDoesNotFollowA307(_ kind: TransportKind) async throws {
        let body = MessageBody(length: nil, streaming: Self.chunks())
        let result = try await Self.upload(.stream(body, contentType: nil), kind: kind) {
            $0.baseURL.absoluteString + "/redirect-to?status=307&location=/upload"
        }
        guard case .failure(let error) = result else {
            Issue.record("a one-shot body was sent twice: \(result)")
            return
        }
        #expect(error.kind == .redirect)
    }

    @Test func aMissingFileFailsToEncode() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-no-such-\(UUID().uuidString)")
        let result = try await Self.upload(.file(missing), kind: .asyncHTTPClient)
        guard case .failure(let error) = result else {
            Issue.record("a missing file was uploaded")
            return
        }
        #expect(error.kind == .encoding)
        #expect(error.underlying as? MultipartError == .fileNotFound(missing))
    }

    /// Progress starts at zero, never goes back, and ends at the file's size.
    @Test(arguments: TransportKind.allCases)
    func progressCountsTheBodyAsItIsSent(_ kind: TransportKind) async throws {
        let values = Locked<[TransferProgress]>([])
        let receipt = try await Self.withFile { file in
            try await Self.upload(.file(file), kind: kind, progress: { value in values.withLock { $0.append(value) } })
        }
        #expect(try receipt.get() == Self.expected)
        let reported = values.withLock { $0 }
        let total = Int64(Self.bytes.count)
        #expect(reported.first == TransferProgress(completed: 0, total: total))
        #expect(reported.last == TransferProgress(completed: total, total: total))
        #expect(zip(reported, reported.dropFirst()).allSatisfy { $0.completed < $1.completed })
    }
}
