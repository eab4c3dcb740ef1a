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

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
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
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
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
        return size(of: file.deletingLastPathComponent().appendingPathComponent("movie.bin.strata-partial"))
    }

    /// The size of the file at `url`, or -1 when there is none.
    static func size(of url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? -1
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
            #expect(result.resumedFrom == 0)  // none of the old partial file's bytes were kept
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
            #expect(result.resumedFrom == 0)
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
            #expect(result.resumedFrom == Int64(Self.source.count))
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
            #expect(Self.contents(of: file.deletingLastPathComponent()) == [])
            let result = try await networker.download(endpoint, to: file)
            #expect(result.resumedFrom == 0)
            #expect(try Data(contentsOf: file) == Self.source)
            #expect(routes.ranges == ["-", "-"])
        }
    }

    /// With a ``RetryMiddleware``, a body cut off mid-way is continued in the same call:
    /// one more request, for the rest.
    @Test(arguments: TransportKind.allCases)
    func aRetryStepContinuesTheDownload(_ kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, endpoint, routes, file in
            let retrying = Networker(
                transport: networker.transport, middleware: [RetryMiddleware(policy: Self.quickRetries)])
            routes.drop("movie.bin", after: 300_000)
            let result = try await retrying.download(endpoint, to: file)
            #expect(try Data(contentsOf: file) == Self.source)
            #expect(result.retries == 1)
            #expect(result.resumedFrom > 0 && result.resumedFrom <= 300_000)
            #expect(result.response.status.code == 206)
            #expect(routes.ranges == ["-", "bytes=\(result.resumedFrom)-"])
            #expect(Self.contents(of: file.deletingLastPathComponent()) == ["movie.bin"])
        }
    }

    /// An endpoint that must not be retried is not continued either.
    @Test func aNeverRetriedEndpointIsNotContinued() async throws {
        try await Self.withServer(.asyncHTTPClient) { networker, endpoint, routes, file in
            let retrying = Networker(
                transport: networker.transport, middleware: [RetryMiddleware(policy: Self.quickRetries)])
            routes.drop("movie.bin", after: 300_000)
            let error = await #expect(throws: StrataError.self) {
                _ = try await retrying.download(endpoint.retry(.never), to: file)
            }
            #expect(error?.kind == .transport)
            #expect(routes.ranges == ["-"])
        }
    }

    /// Cancelled mid-body: the call ends at once, and only the resumable partial file (with
    /// its state) is left, from which the next call continues.
    @Test(arguments: TransportKind.allCases)
    func cancellingLeavesTheResumablePartial(_ kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, endpoint, routes, file in
            routes.stall("movie.bin", after: 300_000)
            let download = Task { try await networker.download(endpoint, to: file) }
            let partial = file.deletingLastPathComponent().appendingPathComponent("movie.bin.strata-partial")
            let arrived = ContinuousClock.now
            while Self.size(of: partial) != 300_000,
                arrived.duration(to: .now) < .seconds(20)
            {
                try await Task.sleep(for: .milliseconds(10))
            }
            let cancelledAt = ContinuousClock.now
            download.cancel()
            let outcome = await download.result
            #expect(cancelledAt.duration(to: .now) < .seconds(3))
            #expect(throws: StrataError.self) { try outcome.get() }
            #expect((outcome.error as? StrataError)?.kind == .cancelled)
            #expect(
                Self.contents(of: file.deletingLastPathComponent()) == [
                    "movie.bin.strata-partial", "movie.bin.strata-partial.json",
                ])
            let result = try await networker.download(endpoint, to: file)
            #expect(result.resumedFrom == 300_000)
            #expect(try Data(contentsOf: file) == Self.source)
            #expect(routes.ranges == ["-", "bytes=300000-"])
        }
    }

    /// Retries at once (10 ms of backoff at most), for the tests.
    static let quickRetries = RetryPolicy(initialBackoff: .milliseconds(10))
}

extension Result {
    /// The failure, if this is one.
    fileprivate var error: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
