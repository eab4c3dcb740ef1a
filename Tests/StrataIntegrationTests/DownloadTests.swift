import Foundation
import Strata
import StrataTestServer
import Testing

/// Downloads to a file over both transports: whole, interrupted and resumed with `Range`
/// and `If-Range`, restarted when the file changed or the server ignores ranges, completed
/// by a `416`; the result compared byte for byte with the source.
@Suite("Downloads")
struct DownloadTests {
    /// 1 MiB and 5 bytes of a pattern that repeats every 253 bytes.
    static let source: Data = {
        var bytes = [UInt8](repeating: 0, count: 1024 * 1024 + 5)
        for index in bytes.indices { bytes[index] = UInt8(index % 253) }
        return Data(bytes)
    }()
    static let changed = Data(source.reversed())

    /// Progress values as they came.
    final class Progress: Sendable {
        private let values = Locked<[TransferProgress]>([])
        var all: [TransferProgress] { values.withLock { $0 } }
        func record(_ value: TransferProgress) { values.withLock { $0.append(value) } }
    }

    static func withServer(
        _ kind: TransportKind, _ body: (Networker, Endpoint<Data>, FileRoutes, URL) async throws -> Void
    ) async throws {
        let routes = FileRoutes()
        routes.set("movie.bin", source)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-download-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestServer.with(configure: { routes.register(on: $0) }) { server in
            try await kind.with { transport in
                let endpoint = Endpoint<Data>(
                    RequestDescription(route: server.baseURL.absoluteString + "/files/movie.bin"))
                try await body(
                    Networker(transport: transport), endpoint, routes, folder.appendingPathComponent("movie.bin"))
            }
        }
    }

    static func contents(of folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// Downloads after the server dropped the first attempt at 300,000 bytes; returns the
    /// partial file's size after that attempt.
    static func interrupted(_ networker: Networker, _ endpoint: Endpoint<Data>, _ routes: FileRoutes, _ file: URL)
        async throws -> Int64
    {
        routes.drop("movie.bin", after: 300_000)
        do {
            _ = try await networker.download(endpoint, to: file)
            Issue.record("the interrupted download succeeded")
        } catch {
            #expect(error.kind == .transport)
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let partial = file.deletingLastPathComponent().appendingPathComponent("movie.bin.strata-partial")
        return (try FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? NSNumber)?.int64Value ?? -1
    }

    @Test(arguments: TransportKind.allCases)
    func wholeWithProgress(_ kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, endpoint, routes, file in
            let progress = Progress()
            let result = try await networker.download(endpoint, to: file) { progress.record($0) }
            #expect(try Data(contentsOf: file) == Self.source)
            #expect(result.bytes == Int64(Self.source.count))
            #expect(result.resumedFrom == 0)
            #expect(Self.contents(of: file.deletingLastPathComponent()) == ["movie.bin"])
            let values = progress.all
            #expect(values.first == TransferProgress(completed: 0, total: Int64(Self.source.count)))
            #expect(
                values.last == TransferProgress(completed: Int64(Self.source.count), total: Int64(Self.source.count)))
            #expect(zip(values, values.dropFirst()).allSatisfy { $0.completed <= $1.completed })
            #expect(routes.ranges == ["-"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func resumesWhereItStopped(_ kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, endpoint, routes, file in
            let partial = try await Self.interrupted(networker, endpoint, routes, file)
            #expect(partial > 0 && partial <= 300_000)
            #expect(
                Self.contents(of: file.deletingLastPathComponent()) == [
                    "movie.bin.strata-partial", "movie.bin.strata-partial.json",
                ])
            let result = try await networker.download(endpoint, to: file)
            #expect(try Data(contentsOf: file) == Self.source)
            #expect(result.resumedFrom == partial)
            #expect(result.response.status.code == 206)
            #expect(routes.ranges == ["-", "bytes=\(partial)-"])
            #expect(Self.contents(of: file.deletingLastPathComponent()) == ["movie.bin"])
        }
    }

    /// The file changed between the attempts: `If-Range` gets the new one whole, never a splice.
    @Test(arguments: TransportKind.allCases)
    func aChangedFileStartsAgain(_ kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, endpoint, routes, file in
            let partial = try await Self.interrupted(networker, endpoint, routes, file)
            routes.set("movie.bin", Self.changed)
            let result = try await networker.download(endpoint, to: file)
            #expect(try Data(contentsOf: file) == Self.changed)
            #expect(result.response.status.code == 200)
            #expect(routes.ranges == ["-", "bytes=\(partial)-"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aServerThatIgnoresRangesStartsAgain(_ kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, endpoint, routes, file in
            _ = try await Self.interrupted(networker, endpoint, routes, file)
            routes.ignoresRanges = true
            let result = try await networker.download(endpoint, to: file)
            #expect(try Data(contentsOf: file) == Self.source)
            #expect(result.response.status.code == 200)
        }
    }

    /// A partial file that already holds everything: the server answers `416`, and the
    /// download completes without a body.
    @Test(arguments: TransportKind.allCases)
    func aCompletePartialFileFinishesOn416(_ kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, endpoint, routes, file in
            let partial = try await Self.interrupted(networker, endpoint, routes, file)
            let handle = try FileHandle(
                forWritingTo: file.deletingLastPathComponent().appendingPathComponent("movie.bin.strata-partial"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Self.source[Int(partial)...])
            try handle.close()
            let result = try await networker.download(endpoint, to: file)
            #expect(result.response.status.code == 416)
            #expect(try Data(contentsOf: file) == Self.source)
            #expect(Self.contents(of: file.deletingLastPathComponent()) == ["movie.bin"])
        }
    }

    /// A content-coded body is decoded on arrival, so its bytes on disk are no offset into
    /// the coded ones: it is not resumed. (AsyncHTTPClient only: curl refuses a coding it
    /// does not know.)
    @Test func aContentCodedBodyIsNotResumed() async throws {
        try await Self.withServer(.asyncHTTPClient) { networker, endpoint, routes, file in
            routes.contentEncoding = "x-strata"
            _ = try await Self.interrupted(networker, endpoint, routes, file)
            #expect(Self.contents(of: file.deletingLastPathComponent()) == ["movie.bin.strata-partial"])
            let result = try await networker.download(endpoint, to: file)
            #expect(result.resumedFrom == 0)
            #expect(try Data(contentsOf: file) == Self.source)
            #expect(routes.ranges == ["-", "-"])
        }
    }
}
