import AsyncHTTPClient
import Foundation
import Strata
import StrataAsyncHTTPClient
import StrataURLSession

#if canImport(Glibc)
    import Glibc
#endif

/// `strata-bench --download`: a file of ``DownloadOptions/megabytes`` MiB from the bench
/// server's `GET /download/{mb}`, written to a temporary file by each variant
/// (``DownloadVariant``) in one process, in alternating rounds.
///
/// Per variant: MB/s (median of the rounds), the client's CPU time, and the peak RSS growth
/// of this process during the download (`VmHWM`, reset before each download by writing `5`
/// to `/proc/self/clear_refs`, after glibc's `malloc_trim`; where that reset is refused,
/// RSS sampled every 2 ms on a thread of its own). Then the ratio Strata/raw of the median
/// MB/s (target ≥ 0.95). Every file's size is checked and the file deleted after each
/// download.
///
/// The server runs in a child process (the hidden `--serve`) unless `--in-process`, so
/// that the RSS and CPU measured are the client's alone.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum DownloadBench {
    /// Bytes in a MB, as the rest of the bench counts (2²⁰).
    static let megabyte = 1_048_576.0
    /// The least Strata's median MB/s should be, as a share of raw AsyncHTTPClient's.
    static let ratioTarget = 0.95
    /// The size of the download each variant makes once before the rounds, at most.
    static let warmUpMegabytes = 16

    /// Runs the mode; returns the exit status: 1 when the server does not start, raw
    /// AsyncHTTPClient or Strata over it fails, any variant's file has the wrong size, or
    /// `--json` cannot be written. A failure of the URLSession variant is reported, not
    /// fatal (FoundationNetworking cannot apply back-pressure on Linux).
    static func run(_ options: DownloadOptions) async -> Int32 {
        let server: BenchServer.Handle
        do {
            server = options.inProcess ? try await BenchServer.startInProcess() : try BenchServer.startChild()
        } catch {
            printError("strata-bench --download: the server did not start: \(error)")
            return 1
        }
        var report = DownloadReport(
            date: ISO8601DateFormatter().string(from: Date()),
            machine: "\(ProcessInfo.processInfo.activeProcessorCount) cores, "
                + ProcessInfo.processInfo.operatingSystemVersionString,
            server: "\(server.placement), \(server.baseURL.absoluteString)", deadline: StrataBench.deadlineOn,
            megabytes: options.megabytes, rounds: options.rounds,
            peakRSS: PeakResidentProbe.canResetPeak
                ? "VmHWM, reset before each download" : "RSS sampled every 2 ms")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-bench-download-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
        print(
            "strata-bench --download: \(options.megabytes) MiB from GET /download/\(options.megabytes), "
                + "\(options.rounds) rounds, order rotated; deadline \(report.deadline ? "on (60 s)" : "off"); "
                + "server: \(report.server)")
        print("files in \(directory.path), deleted after each download; peak RSS: \(report.peakRSS); MB = 2^20 bytes")
        var failed = false
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            report.record(try await measure(options, baseURL: server.baseURL, directory: directory))
        } catch {
            printError("strata-bench --download: \(error)")
            failed = true
        }
        try? FileManager.default.removeItem(at: directory)
        await server.stop()
        guard !failed else { return 1 }
        return printReport(report.table, report, jsonPath: options.jsonPath, mode: "--download")
    }

    /// Downloads a ``warmUpMegabytes`` file with each variant, then runs the rounds; shuts
    /// every variant's client down whether or not they succeeded.
    private static func measure(_ options: DownloadOptions, baseURL: URL, directory: URL) async throws
        -> [DownloadVariantReport]
    {
        let variants = DownloadVariant.allCases.filter { options.variants.contains($0) }
        let downloaders = variants.map(Downloader.init)
        let outcome: Result<[DownloadVariantReport], any Error>
        do {
            outcome = .success(
                try await measure(downloaders, options: options, baseURL: baseURL, directory: directory))
        } catch {
            outcome = .failure(error)
        }
        for downloader in downloaders { await downloader.shutdown() }
        return try outcome.get()
    }

    /// The warm-up download of each variant, then ``DownloadOptions/rounds`` rounds, each
    /// running every variant once, the order rotated.
    private static func measure(
        _ downloaders: [Downloader], options: DownloadOptions, baseURL: URL, directory: URL
    ) async throws -> [DownloadVariantReport] {
        let bytes = options.megabytes * 1_048_576
        var reports = downloaders.map { DownloadVariantReport(variant: $0.variant, bytes: bytes) }
        let warmUp = min(options.megabytes, warmUpMegabytes)
        print("-- warm-up: \(warmUp) MiB with each variant")
        for index in downloaders.indices {
            try await once(
                downloaders[index], megabytes: warmUp, baseURL: baseURL, directory: directory, label: "warm-up",
                into: &reports[index], recording: false)
        }
        print("-- \(options.rounds) rounds of \(options.megabytes) MiB")
        for round in 0..<options.rounds {
            for offset in downloaders.indices {
                let index = (round + offset) % downloaders.count
                try await once(
                    downloaders[index], megabytes: options.megabytes, baseURL: baseURL, directory: directory,
                    label: "round \(round + 1)", into: &reports[index], recording: true)
            }
        }
        return reports
    }

    /// Downloads `/download/{megabytes}` once with `downloader` into `directory`, checks the
    /// file's size, deletes it, prints the figures and, when `recording`, adds them to
    /// `report`.
    /// - Throws: ``BenchError`` when the file has the wrong size, or when the download fails
    ///   and the variant is not ``DownloadVariant/isOptional`` (an optional one's failure
    ///   goes into `report`).
    private static func once(
        _ downloader: Downloader, megabytes: Int, baseURL: URL, directory: URL, label: String,
        into report: inout DownloadVariantReport, recording: Bool
    ) async throws {
        let variant = downloader.variant
        let source = baseURL.appendingPathComponent("download/\(megabytes)")
        let destination = directory.appendingPathComponent("\(variant.rawValue).bin")
        defer { removeContents(of: directory) }
        let expected = megabytes * 1_048_576
        let probe = PeakResidentProbe()
        let cpuBefore = ProcessStats.cpuTime()
        let start = ContinuousClock.now
        do {
            try await downloader.download(source, destination)
        } catch {
            let growth = probe.growth()
            guard variant.isOptional else {
                throw BenchError(description: "\(variant.title), \(label): \(error)")
            }
            let seconds = start.duration(to: .now).seconds
            let failure =
                "\(label): failed after " + String(format: "%.2f s", seconds) + " (peak RSS growth "
                + formatMBDelta(growth) + "): \(error)"
            print("  \(variant.title), \(failure)")
            report.failures.append(failure)
            return
        }
        let seconds = start.duration(to: .now).seconds
        let cpuSeconds = (ProcessStats.cpuTime() - cpuBefore).seconds
        let growth = probe.growth()
        let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber)?
            .intValue
        guard size == expected else {
            throw BenchError(
                description: "\(variant.title), \(label): the file holds \(size.map(String.init) ?? "nothing") "
                    + "bytes, expected \(expected) (\(megabytes) MiB)")
        }
        print(
            "  \(variant.title), \(label): "
                + String(
                    format: "%.2f s, %.1f MB/s, CPU %.2f s, peak RSS growth ", seconds,
                    Double(expected) / megabyte / seconds, cpuSeconds) + formatMBDelta(growth))
        if recording {
            report.add(seconds: seconds, cpuSeconds: cpuSeconds, peakGrowth: growth)
        }
    }

    /// Deletes every file in `directory`: the download, and any partial file a failed one
    /// left behind.
    private static func removeContents(of directory: URL) {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for file in files {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(file))
        }
    }
}

/// A way of downloading the file, over the client it made.
private struct Downloader: Sendable {
    /// Which variant this is.
    let variant: DownloadVariant
    /// Downloads `source` to the file `destination`; throws when the client fails or the
    /// status is not `200`.
    let download: @Sendable (_ source: URL, _ destination: URL) async throws -> Void
    /// Shuts the variant's client down.
    let shutdown: @Sendable () async -> Void

    /// Makes `variant`'s client: its own `HTTPClient` (`.strataDefault`, the configuration
    /// `AsyncHTTPClientTransport()` gives its own) for raw AsyncHTTPClient; a `Networker`
    /// with the bench's configuration over `AsyncHTTPClientTransport()` or
    /// `URLSessionTransport()` (both with their defaults) for Strata.
    init(_ variant: DownloadVariant) {
        self.variant = variant
        switch variant {
        case .raw:
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .strataDefault)
            download = { source, destination in
                let request = try HTTPClient.Request(url: source.absoluteString)
                // The file I/O runs on the client's shared thread pool.
                let delegate = try FileDownloadDelegate(path: destination.path)
                let progress = try await client.execute(request: request, delegate: delegate).get()
                guard progress.head.status == .ok else {
                    throw BenchError(description: "GET \(source.path): \(progress.head.status)")
                }
            }
            shutdown = { try? await client.shutdown() }
        case .strata, .urlsession:
            let transport: any Transport = variant == .strata ? AsyncHTTPClientTransport() : URLSessionTransport()
            let networker = Networker(transport: transport, configuration: StrataBench.networkerConfiguration)
            download = { source, destination in
                let endpoint = Endpoint<Data>(RequestDescription(route: source.absoluteString))
                let result = try await networker.download(endpoint, to: destination)
                guard result.response.status == .ok else {
                    throw BenchError(description: "GET \(source.path): \(result.response.status)")
                }
            }
            shutdown = {
                if let transport = transport as? AsyncHTTPClientTransport { try? await transport.shutdown() }
            }
        }
    }
}

/// The peak RSS growth of this process over one download or one WebSocket run.
struct PeakResidentProbe {
    /// The baseline: RSS when the probe started, in bytes.
    private let before: Int?
    /// Where `VmHWM` cannot be reset, the thread sampling RSS.
    private let poller: ResidentPoller?

    /// Whether this process may reset its `VmHWM` (Linux 4.0 and later, unless refused).
    static let canResetPeak = resetPeak()

    /// Returns freed memory to the system (so that the download's growth shows in RSS
    /// instead of reusing it), then resets `VmHWM` and takes it as the baseline, or, where
    /// it cannot be reset, starts a ``ResidentPoller``.
    init() {
        Self.returnFreedMemory()
        if Self.canResetPeak, Self.resetPeak() {
            poller = nil
            before = ProcessStats.peakResidentBytes()
        } else {
            poller = ResidentPoller()
            before = ProcessStats.residentBytes()
        }
    }

    /// The peak RSS since the probe started over the baseline, in bytes; `nil` where RSS
    /// is not available.
    func growth() -> Int? {
        let peak: Int? =
            if let poller { poller.stop() ?? ProcessStats.residentBytes() } else { ProcessStats.peakResidentBytes() }
        guard let before, let peak else { return nil }
        return max(0, peak - before)
    }

    /// Resets this process's `VmHWM` to its current RSS (writes `5` to
    /// `/proc/self/clear_refs`); `false` where that is not possible.
    private static func resetPeak() -> Bool {
        #if os(Linux)
            guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
            defer { try? handle.close() }
            do {
                try handle.write(contentsOf: Data("5".utf8))
                return true
            } catch {
                return false
            }
        #else
            return false
        #endif
    }

    /// Gives the memory that earlier work freed back to the system (glibc's
    /// `malloc_trim`, which Swift's Glibc module does not import).
    private static func returnFreedMemory() {
        #if canImport(Glibc)
            typealias Trim = @convention(c) (Int) -> Int32
            guard let symbol = dlsym(nil, "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }
}

/// Samples RSS every 2 ms on a thread of its own until stopped, keeping the highest.
private final class ResidentPoller: Sendable {
    /// The highest RSS seen, and whether the thread should go on.
    private let state = Locked<(peak: Int?, running: Bool)>((nil, true))

    /// Starts the sampling thread.
    init() {
        let state = self.state
        Thread.detachNewThread {
            while state.withLock({ $0.running }) {
                if let rss = ProcessStats.residentBytes() {
                    state.withLock { $0.peak = max($0.peak ?? rss, rss) }
                }
                Thread.sleep(forTimeInterval: 0.002)
            }
        }
    }

    /// Stops the thread; returns the highest RSS it saw, in bytes.
    func stop() -> Int? {
        state.withLock {
            $0.running = false
            return $0.peak
        }
    }
}

/// The settings of `--download`.
struct DownloadOptions: Sendable {
    /// The file's size in MiB (`--download-mb`).
    var megabytes = 256
    /// Measured rounds (`--rounds`); each runs every variant once, the order rotated.
    var rounds = 3
    /// The variants that run (`--only`; default all).
    var variants = Set(DownloadVariant.allCases)
    /// Whether the server runs in this process rather than in a child process.
    var inProcess = false
    /// Where `--json` writes the results, if anywhere.
    var jsonPath: String?
}

/// A way of downloading the file, for `--only`.
enum DownloadVariant: String, CaseIterable, Codable, Sendable {
    /// Raw AsyncHTTPClient: `HTTPClient.execute(request:delegate:)` with its
    /// `FileDownloadDelegate`.
    case raw
    /// Strata's `Networker.download(_:to:)` over `AsyncHTTPClientTransport()`.
    case strata
    /// Strata's `Networker.download(_:to:)` over `URLSessionTransport()`: reported, not
    /// part of the ratio.
    case urlsession

    /// The variant, for the report.
    var title: String {
        switch self {
        case .raw: "raw AsyncHTTPClient FileDownloadDelegate"
        case .strata: "Strata download, AsyncHTTPClientTransport"
        case .urlsession: "Strata download, URLSessionTransport"
        }
    }

    /// Whether a failed download is reported rather than ending the run: URLSession on
    /// Linux cannot pause a transfer, so at loopback speed its transport may stop the body
    /// when its response buffer fills.
    var isOptional: Bool { self == .urlsession }
}

// MARK: Results

/// The results of `--download`, printed as a table and written by `--json`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
struct DownloadReport: Codable, Sendable {
    /// When the run started (ISO 8601).
    var date: String
    /// Cores and OS, for the record.
    var machine: String
    /// Where the server ran.
    var server: String
    /// Whether the Strata variants had the default 60 s deadline (`STRATA_BENCH_NO_DEADLINE` unset).
    var deadline: Bool
    /// The file's size in MiB.
    var megabytes: Int
    /// Measured rounds.
    var rounds: Int
    /// How the peak RSS was measured.
    var peakRSS: String
    /// Each variant's rounds, in the order of ``DownloadVariant/allCases``; set with
    /// ``record(_:)``.
    private(set) var variants: [DownloadVariantReport] = []
    /// Strata's median MB/s over raw AsyncHTTPClient's; `nil` unless both ran.
    private(set) var ratio: Double?
    /// Whether ``ratio`` meets ``DownloadBench/ratioTarget``; `nil` without a ratio.
    private(set) var ratioTargetMet: Bool?

    /// Sets the variants' results and the ratio.
    mutating func record(_ variants: [DownloadVariantReport]) {
        self.variants = variants
        if let raw = variants.first(where: { $0.variant == .raw }), raw.medianMBps > 0,
            let strata = variants.first(where: { $0.variant == .strata }), !strata.mbps.isEmpty
        {
            ratio = strata.medianMBps / raw.medianMBps
            ratioTargetMet = strata.medianMBps / raw.medianMBps >= DownloadBench.ratioTarget
        }
    }

    /// The results as an aligned table, the ratio, and any failures.
    var table: String {
        var lines = [
            "", "download of \(megabytes) MiB to a file, \(rounds) rounds (server: \(server))",
            row(
                "variant", "median MB/s", "min MB/s", "max MB/s", "median s", "median CPU s", "RSS med MB",
                "RSS max MB"),
        ]
        for result in variants {
            guard !result.mbps.isEmpty else {
                lines.append(row(result.variant.title, "every round failed"))
                continue
            }
            lines.append(
                row(
                    result.variant.title, String(format: "%.1f", result.medianMBps),
                    String(format: "%.1f", result.mbps.min() ?? 0), String(format: "%.1f", result.mbps.max() ?? 0),
                    String(format: "%.2f", median(result.seconds)), String(format: "%.2f", result.medianCPUSeconds),
                    result.peakGrowthMB.isEmpty ? "n/a" : String(format: "%+.1f", median(result.peakGrowthMB)),
                    result.peakGrowthMB.max().map { String(format: "%+.1f", $0) } ?? "n/a"))
        }
        if let ratio, let ratioTargetMet {
            lines.append(
                String(
                    format: "  ratio Strata/raw AsyncHTTPClient, median MB/s: %.2f (target >= %.2f: %@)", ratio,
                    DownloadBench.ratioTarget, ratioTargetMet ? "met" : "NOT MET"))
        }
        for result in variants where !result.failures.isEmpty {
            lines.append("  \(result.variant.title): \(result.failures.count) download(s) failed")
            lines += result.failures.map { "    \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    /// A table row, as ``tableRow(_:_:)`` lays it out.
    private func row(_ first: String, _ rest: String...) -> String { tableRow(first, rest) }
}

/// One variant's rounds.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
struct DownloadVariantReport: Codable, Sendable {
    /// The variant.
    var variant: DownloadVariant
    /// The file's size.
    var bytes: Int
    /// Each successful round's duration, from the request to the file complete.
    var seconds: [Double] = []
    /// Each successful round's MB (2²⁰ bytes) per second.
    var mbps: [Double] = []
    /// The median of ``mbps``; 0 before any round succeeded.
    var medianMBps = 0.0
    /// Each successful round's CPU time of the whole client process (user + system).
    var cpuSeconds: [Double] = []
    /// The median of ``cpuSeconds``.
    var medianCPUSeconds = 0.0
    /// Each successful round's peak RSS growth during the download, in MB; empty where RSS
    /// is not available.
    var peakGrowthMB: [Double] = []
    /// What went wrong in the downloads that failed, the warm-up's included (the optional
    /// variant only).
    var failures: [String] = []

    /// A variant with no round yet, downloading files of `bytes`.
    init(variant: DownloadVariant, bytes: Int) {
        self.variant = variant
        self.bytes = bytes
    }

    /// Adds a successful round.
    mutating func add(seconds: Double, cpuSeconds: Double, peakGrowth: Int?) {
        self.seconds.append(seconds)
        mbps.append(Double(bytes) / DownloadBench.megabyte / seconds)
        medianMBps = median(mbps)
        self.cpuSeconds.append(cpuSeconds)
        medianCPUSeconds = median(self.cpuSeconds)
        if let peakGrowth { peakGrowthMB.append(Double(peakGrowth) / DownloadBench.megabyte) }
    }
}
