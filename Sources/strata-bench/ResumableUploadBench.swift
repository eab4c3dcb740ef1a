import Foundation
import Strata
import StrataAsyncHTTPClient
import StrataDemoServer

/// `--resumable-upload`: what the resumable upload protocol costs against a plain `PUT` of
/// the same file, over AsyncHTTPClient to an in-process `NIOResumableUpload` server that
/// stores each upload in a file (and hashes it, for both variants alike): a plain `PUT`
/// through Strata, a resumable upload (`OPTIONS`, `POST`, `PATCH`), and a resumable upload
/// whose first `PATCH` the server cuts halfway (then `HEAD` and a second `PATCH`). Process
/// CPU includes the server's work.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum ResumableUploadBench {
    private enum Variant: String, CaseIterable {
        case plainPut = "plain PUT (body .file)"
        case resumable = "resumable"
        case resumableCut = "resumable, cut halfway"
    }

    static func run(_ options: UploadBenchOptions) async -> Int32 {
        let size = options.megabytes << 20
        let megabytes = Double(size) / 1_048_576
        print(
            "resumable-upload: a \(options.megabytes) MiB file over AsyncHTTPClient, \(options.rounds) rounds, medians")
        print("  (wall, MiB/s, process CPU per MiB — client and server —, bytes the server read)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-upload-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport = AsyncHTTPClientTransport()
        defer { Task { try? await transport.shutdown() } }
        var configuration = StrataBench.networkerConfiguration
        configuration.timeout = .seconds(600)
        let networker = Networker(
            transport: transport,
            middleware: [RetryMiddleware(policy: RetryPolicy(maxAttempts: 3, maxBackoff: .milliseconds(1)))],
            configuration: configuration)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("upload.bin")
            try GzipUploadBench.randomBytes(count: size).write(to: file)
            for variant in Variant.allCases {
                let cuts: ResumableUploadServer.Cuts = variant == .resumableCut ? .eachUploadOnce(after: size / 2) : []
                let server = try await ResumableUploadServer.start(cuts: cuts)
                var wall: [Double] = []
                var cpu: [Double] = []
                var read: [Int] = []
                do {
                    for _ in 0..<options.rounds {
                        let before = server.bytesIn
                        let clock = ContinuousClock.now
                        let start = ProcessStats.cpuTime()
                        let stored = try await upload(file, variant, to: server.baseURL, with: networker)
                        cpu.append(GzipUploadBench.milliseconds(ProcessStats.cpuTime() - start) / megabytes)
                        wall.append(GzipUploadBench.milliseconds(ContinuousClock.now - clock))
                        read.append(server.bytesIn - before)
                        guard stored == size else { throw BenchFailure("stored \(stored) bytes of \(size)") }
                    }
                } catch {
                    await server.shutdown()
                    throw error
                }
                await server.shutdown()
                let wallMedian = GzipUploadBench.median(wall)
                print(
                    "  \(variant.rawValue): \(GzipUploadBench.format(wallMedian)) ms, "
                        + "\(GzipUploadBench.format(megabytes / (wallMedian / 1000))) MiB/s, "
                        + "\(GzipUploadBench.format(GzipUploadBench.median(cpu))) ms CPU per MiB, "
                        + "\(read.sorted()[read.count / 2]) bytes read")
            }
        } catch {
            printError("resumable-upload failed: \(error)")
            return 1
        }
        return 0
    }

    /// Uploads `file` as `variant` says; returns the size the server stored.
    private static func upload(
        _ file: URL, _ variant: Variant, to server: URL, with networker: Networker
    ) async throws -> Int {
        let url = server.appendingPathComponent("uploads").appendingPathComponent("bench.bin")
        switch variant {
        case .plainPut:
            let endpoint = Endpoint(
                RequestDescription(route: url, method: .put, body: .file(file)),
                decoding: ResumableUploadServer.Stored.self)
            return try await networker.send(endpoint).size
        case .resumable, .resumableCut:
            let endpoint = Endpoint(
                RequestDescription(route: url, method: .post), decoding: ResumableUploadServer.Stored.self)
            let result = try await networker.upload(endpoint, from: file, stateFolder: nil)
            guard result.resumptions == (variant == .resumableCut ? 1 : 0) else {
                throw BenchFailure("\(result.resumptions) resumptions")
            }
            return result.response.value.size
        }
    }

    private struct BenchFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
