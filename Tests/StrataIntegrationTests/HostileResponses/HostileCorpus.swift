import Foundation
import Strata
import StrataTestSupport

/// Runs hostile cases over a transport in child processes of the test binary, so that a
/// case that crashes the process is counted rather than fatal: after a crash, the cases
/// that were in flight are run again one per child to find which one it was, and the run
/// goes on with the rest.
enum HostileCorpus {
    /// How much longer than the deadline a case may take before it counts as hanging.
    static let margin = Duration.seconds(3)

    /// What the cases over one transport came to.
    struct Report {
        var results: [UInt64: HostileResult] = [:]
        /// The cases that crashed a child, with where it stopped.
        var crashes: [UInt64: String] = [:]
        /// The cases still running when their child was stopped for running too long.
        var hangs: Set<UInt64> = []
        /// The largest peak growth of a child's resident set, in bytes.
        var peakGrowth = 0
        /// The connections the server saw reused.
        var reuses: [HostileServer.Reuse] = []
        /// The cases whose request never reached the server.
        var unanswered: Set<UInt64> = []
        /// How many child processes the run took.
        var children = 0

        /// The cases whose outcome is wrong for their expectation, or that took longer than
        /// the deadline and ``margin``: `seed → what is wrong`.
        func violations(deadline: Duration) -> [UInt64: String] {
            var found: [UInt64: String] = [:]
            for (seed, result) in results {
                let hostile = HostileCase(seed: seed)
                if let violation = HostileExpectation(hostile).violation(by: result.observation, for: hostile) {
                    found[seed] = violation
                } else if .milliseconds(result.elapsedMilliseconds) > deadline + margin {
                    found[seed] = "took \(result.elapsedMilliseconds) ms"
                }
            }
            return found
        }

        /// The reuses of a connection whose last response the client failed to frame
        /// (a transport error).
        var reusesAfterFramingErrors: [HostileServer.Reuse] {
            reuses.filter { results[$0.previous]?.observation.outcome.kind == .transport }
        }

        /// The seeds of each kind of outcome: `success`, `transport(timedOut)`, ….
        var seedsByOutcome: [String: [UInt64]] {
            var seeds: [String: [UInt64]] = [:]
            for (seed, result) in results {
                let outcome = result.observation.outcome
                let name =
                    outcome.kind.map { kind in outcome.transportKind.map { "\(kind)(\($0))" } ?? "\(kind)" }
                    ?? "success"
                seeds[name, default: []].append(seed)
            }
            return seeds
        }

        /// Several lines: the counts of outcomes, crashes by site, hangs, peak growth.
        var summary: String {
            var lines = ["\(results.count + crashes.count + hangs.count) cases in \(children) child processes"]
            lines.append("outcomes:")
            for (name, seeds) in seedsByOutcome.sorted(by: { $0.value.count > $1.value.count }) {
                lines.append("  \(seeds.count) × \(name) (e.g. seed \(seeds.min()!))")
            }
            var sites: [String: [UInt64]] = [:]
            for (seed, site) in crashes { sites[site, default: []].append(seed) }
            lines.append("crashes: \(crashes.count)")
            for (site, seeds) in sites.sorted(by: { $0.value.count > $1.value.count }) {
                lines.append("  \(seeds.count) × \(site) (e.g. \(HostileCase(seed: seeds.min()!)))")
            }
            lines.append("hangs: \(hangs.count); peak RSS growth \(peakGrowth / 1_048_576) MB")
            return lines.joined(separator: "\n")
        }

        mutating func merge(_ lines: [HostileLogLine]) {
            for line in lines {
                switch line {
                case .started: break
                case .finished(let result): results[result.seed] = result
                case .ended(let growth, let pairs, let unanswered):
                    peakGrowth = max(peakGrowth, growth)
                    reuses += pairs.map { HostileServer.Reuse(previous: $0[0], next: $0[1]) }
                    self.unanswered.formUnion(unanswered)
                }
            }
        }
    }

    /// Runs `seeds` over `transport`, `concurrency` at a time, each call with a deadline
    /// of `deadlineMilliseconds`.
    static func run(
        _ seeds: [UInt64], over transport: TransportKind, concurrency: Int, deadlineMilliseconds: Int
    ) async throws -> Report {
        guard let executable = ChildProcess.testBinary else { throw ChildError.noTestBinary }
        var report = Report()
        let job = HostileRun(
            transport: transport.rawValue, seeds: seeds, concurrency: concurrency,
            deadlineMilliseconds: deadlineMilliseconds, logPath: "")
        try await run(job, executable: executable, report: &report)
        return report
    }

    /// Runs `job`'s cases in children until each has an outcome, a crash or a hang.
    /// A child that stops with several cases in flight has them run again one at a time,
    /// where a stop names its case.
    private static func run(_ job: HostileRun, executable: URL, report: inout Report) async throws {
        var job = job
        while !job.seeds.isEmpty {
            let child = try await runChild(job, executable: executable, report: &report)
            guard case .stopped(let site) = child.end else { return }
            guard !child.started.isEmpty else { throw ChildError.startedNothing(site) }
            let started = Set(child.started)
            let inFlight = child.started.filter { report.results[$0] == nil }
            job.seeds.removeAll { started.contains($0) }
            if inFlight.count == 1 {
                if let site { report.crashes[inFlight[0]] = site } else { report.hangs.insert(inFlight[0]) }
            } else {
                var sequential = job
                sequential.seeds = inFlight
                sequential.concurrency = 1
                try await run(sequential, executable: executable, report: &report)
            }
        }
    }

    /// How a child ended.
    private enum ChildEnd {
        case completed
        /// Crashed (with where, from its standard error), or stopped for running too long (`nil`).
        case stopped(String?)
    }

    private static func runChild(_ job: HostileRun, executable: URL, report: inout Report) async throws -> (
        started: [UInt64], end: ChildEnd
    ) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var job = job
        job.logPath = folder.appendingPathComponent("log").path
        let jobURL = folder.appendingPathComponent("job.json")
        try JSONEncoder().encode(job).write(to: jobURL)
        let errorURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let errorOutput = try FileHandle(forWritingTo: errorURL)
        defer { try? errorOutput.close() }
        let process = ChildProcess.make(
            executable: executable, filter: "HostileChildTests",
            // A crash's backtrace unsymbolicated (symbolicating takes seconds): the crashing
            // address and the image that holds it name a site that has no message.
            environment: [HostileRun.jobVariable: jobURL.path, "SWIFT_BACKTRACE": Self.backtraceSettings],
            output: errorOutput)
        let rounds = (job.seeds.count + job.concurrency - 1) / job.concurrency
        let deadline = Duration.milliseconds(job.deadlineMilliseconds)
        let timedOut = try await ChildProcess.run(process, timeout: (deadline + margin) * rounds + .seconds(60))
        report.children += 1
        let lines = HostileLog.read(job.logPath)
        report.merge(lines)
        let started = lines.compactMap { line -> UInt64? in
            if case .started(let seed) = line { return seed }
            return nil
        }
        if lines.contains(where: { if case .ended = $0 { true } else { false } }) { return (started, .completed) }
        if timedOut { return (started, .stopped(nil)) }
        let errors = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        return (started, .stopped(crashSite(in: errors, status: process.terminationStatus)))
    }

    /// The Swift runtime's backtrace settings for a child: the crashed thread's first
    /// frame, unsymbolicated, and the image it is in.
    static let backtraceSettings =
        "enable=yes,interactive=no,threads=crashed,symbolicate=off,registers=none,images=mentioned,limit=1"

    /// Where a child stopped, from its standard error: `NativeProtocol.swift:240: Transfer
    /// completed, but there's no response.` for a runtime error with a message, else
    /// `Illegal instruction in libFoundationNetworking.so+0xb2f60` (the crashing address
    /// as an offset into its image, which does not move between runs), else the status.
    static func crashSite(in errors: String, status: Int32) -> String {
        let lines = errors.split(separator: "\n").map(String.init)
        if let line = lines.first(where: { $0.contains("Fatal error:") }) {
            let parts = line.components(separatedBy: ": Fatal error: ")
            guard parts.count == 2 else { return line }
            let location = parts[0].split(separator: "/").last.map(String.init) ?? parts[0]
            return "\(location): \(parts[1])"
        }
        // `*** Program crashed: Illegal instruction at 0x00007f3bd7f1ef60 ***` and an image
        // line `0x00007f3bd7e6c000–0x00007f3bd7f6fbb8 <build id> libFoundationNetworking.so <path>`.
        guard let crash = lines.first(where: { $0.hasPrefix("*** Program crashed: ") }),
            let at = crash.range(of: " at 0x"),
            let address = UInt64(crash[at.upperBound...].prefix { $0.isHexDigit }, radix: 16)
        else { return "signal \(status)" }
        let reason = String(crash[crash.index(crash.startIndex, offsetBy: 21)..<at.lowerBound])
        for line in lines where line.hasPrefix("0x") {
            let fields = line.split(separator: " ")
            let bounds = fields.first?.split(separator: "–").map { UInt64($0.dropFirst(2), radix: 16) }
            guard fields.count >= 3, let bounds, bounds.count == 2, let low = bounds[0], let high = bounds[1],
                (low..<high).contains(address)
            else { continue }
            return "\(reason) in \(fields[2])+0x\(String(address - low, radix: 16))"
        }
        return reason
    }

    enum ChildError: Error {
        case noTestBinary
        /// A child stopped before it started a case.
        case startedNothing(String?)
    }
}
