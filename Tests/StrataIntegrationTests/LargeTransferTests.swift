import Crypto
import Foundation
import OpenAPIRuntime
import Strata
import StrataCompression
import StrataDemoOpenAPI
import StrataOpenAPI
import StrataTestServer
import StrataTestSupport
import StrataURLSession
import Testing

/// An upload and a download of `STRATA_TRANSFER_MB` megabytes (200 by default; 1024 for
/// the gigabyte) between a file and the in-process server over each transport:
/// every byte arrives (compared by FNV-1a digest), progress ends at the size, and the
/// process's resident set grows by less than 32 MB meanwhile (measured on Linux only, see
/// ``ResidentMemory``). One at a time, and beside no timed suite.
@Suite("Large transfers", .serialized, .runsAlone)
struct LargeTransferTests {
    static let megabytes = ProcessInfo.processInfo.environment["STRATA_TRANSFER_MB"].flatMap(Int.init) ?? 200
    static let size = megabytes * 1_048_576
    static let memoryBound = 32 << 20

    /// Writes a file of ``size`` bytes (a 1 MiB block, repeated) into `folder` and
    /// returns it with its digest.
    static func writeSource(in folder: URL) throws -> (URL, digest: String) {
        let block = Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
        let file = folder.appendingPathComponent("source.bin")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var digest = FNV1a()
        for _ in 0..<megabytes {
            try handle.write(contentsOf: block)
            block.withUnsafeBytes { digest.add($0) }
        }
        return (file, digest.hex)
    }

    /// The digest of the file at `url`, read 1 MiB at a time.
    static func digest(of url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var digest = FNV1a()
        while let chunk = try handle.read(upToCount: 1_048_576), !chunk.isEmpty {
            chunk.withUnsafeBytes { digest.add($0) }
        }
        return digest.hex
    }

    static func inFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-large-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func uploadFromAFile(_ kind: TransportKind) async throws {
        try await Self.inFolder { folder in
            let (file, digest) = try Self.writeSource(in: folder)
            let last = Locked<TransferProgress?>(nil)
            let (receipt, growth) = try await TestServer.with(configure: { UploadRoutes.register(on: $0) }) { server in
                try await kind.with { transport in
                    let endpoint = Endpoint(
                        RequestDescription(
                            route: server.baseURL.absoluteString + "/upload", method: .post, body: .file(file)),
                        decoding: UploadReceipt.self)
                    return try await PeakRSSSampler.measure {
                        try await Networker(transport: transport).upload(endpoint) { value in
                            last.withLock { $0 = value }
                        }.value
                    }
                }
            }
            #expect(
                receipt
                    == UploadReceipt(
                        bytes: Self.size, digest: digest, contentLength: String(Self.size), transferEncoding: nil))
            #expect(last.withLock { $0 } == TransferProgress(completed: Int64(Self.size), total: Int64(Self.size)))
            print("large transfer: \(Self.megabytes) MB uploaded over \(kind), peak RSS growth \(growth >> 20) MiB")
            ResidentMemory.expect(
                growth: growth, below: Self.memoryBound, "peak RSS growth \(growth >> 20) MiB uploading over \(kind)")
        }
    }

    /// The file gzip-compressed as it is sent (`RequestCompressionMiddleware`), chunked, over
    /// AsyncHTTPClient: the server inflates it to the same SHA-256, and memory stays bounded
    /// (URLSession collects a compressed body in memory first, see `CompressedUploadTests`).
    @Test
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func compressedUploadFromAFile() async throws {
        try await Self.inFolder { folder in
            let (file, _) = try Self.writeSource(in: folder)
            let handle = try FileHandle(forReadingFrom: file)
            var hash = SHA256()
            while let chunk = try handle.read(upToCount: 1_048_576), !chunk.isEmpty { hash.update(data: chunk) }
            try handle.close()
            let sha256 = GzipInflater.hex(hash.finalize())
            let (result, growth) = try await TestServer.with(configure: CompressedUploadTests.routes) { server in
                try await TransportKind.asyncHTTPClient.with { transport in
                    let endpoint = Endpoint(
                        RequestDescription(
                            route: server.baseURL.absoluteString + "/inflate", method: .post, body: .file(file)),
                        decoding: CompressedUploadTests.Received.self)
                    let networker = Networker(transport: transport, middleware: [RequestCompressionMiddleware()])
                    return try await PeakRSSSampler.measure { try await networker.response(for: endpoint) }
                }
            }
            #expect(result.value.coding == "gzip")
            #expect(result.value.bytes == Self.size)
            #expect(result.value.sha256 == sha256)
            #expect(result.value.contentLength == nil)
            #expect(result.requestCompression?.bytesSent == Int64(result.value.wireBytes))
            print(
                "large transfer: \(Self.megabytes) MB uploaded gzip-compressed over asyncHTTPClient "
                    + "(\(result.value.wireBytes) bytes on the wire), peak RSS growth \(growth >> 20) MiB")
            ResidentMemory.expect(
                growth: growth, below: Self.memoryBound, "peak RSS growth \(growth >> 20) MiB uploading compressed")
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func downloadToAFile(_ kind: TransportKind) async throws {
        try await Self.inFolder { folder in
            let (file, digest) = try Self.writeSource(in: folder)
            let routes = FileRoutes()
            routes.set("large.bin", contentsOf: file, size: Self.size)
            // URLSession on Linux cannot pause a transfer: bytes that arrive faster than the
            // file takes them wait in memory, up to the transport's `responseBufferLimit`,
            // where the transfer stops. The in-process server over loopback outruns a debug
            // build's file writes, so for URLSession it sends at 32 MiB/s, as a network
            // would, and the transport holds at most 16 MiB unread.
            routes.bytesPerSecond = kind == .urlSession ? 32 << 20 : nil
            let destination = folder.appendingPathComponent("large.bin")
            let last = Locked<TransferProgress?>(nil)
            let (result, growth) = try await TestServer.with(configure: { routes.register(on: $0) }) { server in
                try await kind.with(responseBufferLimit: 16 << 20) { transport in
                    let endpoint = Endpoint<Data>(
                        RequestDescription(route: server.baseURL.absoluteString + "/files/large.bin"))
                    return try await PeakRSSSampler.measure {
                        try await Networker(transport: transport).download(endpoint, to: destination) { value in
                            last.withLock { $0 = value }
                        }
                    }
                }
            }
            #expect(result.bytes == Int64(Self.size))
            #expect(try Self.digest(of: destination) == digest)
            #expect(last.withLock { $0 } == TransferProgress(completed: Int64(Self.size), total: Int64(Self.size)))
            print("large transfer: \(Self.megabytes) MB downloaded over \(kind), peak RSS growth \(growth >> 20) MiB")
            ResidentMemory.expect(
                growth: growth, below: Self.memoryBound, "peak RSS growth \(growth >> 20) MiB downloading over \(kind)")
        }
    }

    /// The generated OpenAPI client's `downloadFile` over `NetworkerTransport`: the body
    /// streams from Strata's transport to the caller as the generated client's `HTTPBody`,
    /// never held whole.
    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aGeneratedClientStreamsADownloadThroughStrata(_ kind: TransportKind) async throws {
        try await Self.inFolder { folder in
            let (file, digest) = try Self.writeSource(in: folder)
            let routes = FileRoutes()
            routes.set("large.bin", contentsOf: file, size: Self.size)
            // As above: URLSession on Linux cannot pause a transfer.
            routes.bytesPerSecond = kind == .urlSession ? 32 << 20 : nil
            // Written to a file as it arrives (digesting it meanwhile is too slow for a debug
            // build to keep up with URLSession), and digested afterwards.
            let destination = folder.appendingPathComponent("received.bin")
            #expect(FileManager.default.createFile(atPath: destination.path, contents: nil))
            let output = try FileHandle(forWritingTo: destination)
            defer { try? output.close() }
            let (bytes, growth) = try await TestServer.with(configure: { routes.register(on: $0) }) {
                server in
                try await kind.with(responseBufferLimit: 16 << 20) { transport in
                    let client = Client(
                        serverURL: server.baseURL, transport: NetworkerTransport(Networker(transport: transport)))
                    return try await PeakRSSSampler.measure {
                        let body = try await client.downloadFile(path: .init(name: "large.bin")).ok.body.binary
                        var bytes = 0
                        for try await chunk in body {
                            bytes += chunk.count
                            try output.write(contentsOf: chunk)
                        }
                        return bytes
                    }
                }
            }
            #expect(bytes == Self.size)
            #expect(try Self.digest(of: destination) == digest)
            print(
                "large transfer: \(Self.megabytes) MB through the generated client over \(kind), peak RSS growth \(growth >> 20) MiB"
            )
            ResidentMemory.expect(
                growth: growth, below: Self.memoryBound,
                "peak RSS growth \(growth >> 20) MiB through the generated client over \(kind)")
        }
    }
}
