import Foundation

/// The results of a pairs run, as printed and as `--json` writes them.
struct RunReport: Codable, Sendable {
    /// When the run started (ISO 8601).
    var date: String
    /// Cores, OS and Swift, for the record.
    var machine: String
    /// Where the server ran: "separate process (pid N)", "in process", or "none".
    var server: String
    /// Whether the Strata variants had the default 60 s deadline (`STRATA_BENCH_NO_DEADLINE` unset).
    var deadline: Bool
    var rounds: Int
    var requests: Int
    var results: [WorkloadReport] = []
    /// The 100 MB streams, one per transport group that ran.
    var streams: [StreamReport] = []
    var targets: [TargetReport] = []
    /// Why allocations are not in the table, and where they are counted.
    var allocations =
        "not measured here: glibc keeps no cheap allocation counter (mallinfo2 reports bytes in use, "
        + "not calls). scripts/callgrind.sh counts allocations per request with valgrind; the Benchmarks/ package "
        + "reports mallocCountTotal."
}

/// One workload of one pair.
struct WorkloadReport: Codable, Sendable {
    var group: PairGroup
    var workload: WorkloadKind
    var concurrency: Int
    var requestsPerRound: Int
    var baseline: VariantReport
    var subject: VariantReport
    /// The subject's median req/s over the baseline's (Strata/raw; 5 middleware/0 in the `mock` group).
    var ratio: Double
    /// The subject's CPU per request minus the baseline's, in µs.
    var cpuDeltaMicros: Double

    init(group: PairGroup, workload: Workload, baseline: VariantSamples, subject: VariantSamples) {
        self.group = group
        self.workload = workload.kind
        self.concurrency = workload.concurrency
        self.requestsPerRound = workload.requests
        self.baseline = VariantReport(workload.baseline.name, baseline)
        self.subject = VariantReport(workload.subject.name, subject)
        ratio =
            self.baseline.requestsPerSecond.median > 0
            ? self.subject.requestsPerSecond.median / self.baseline.requestsPerSecond.median : 0
        cpuDeltaMicros = self.subject.cpuMicrosPerRequest - self.baseline.cpuMicrosPerRequest
    }

    /// "GET user c16".
    var label: String { "\(workload.rawValue) c\(concurrency)" }
}

/// One variant of a workload, over all rounds.
struct VariantReport: Codable, Sendable {
    struct Spread: Codable, Sendable {
        var median: Double
        var min: Double
        var max: Double
    }

    var name: String
    /// Requests per second: the median round, and the slowest and fastest.
    var requestsPerSecond: Spread
    /// Latency percentiles over every request of every round, in µs.
    var latencyP50Micros: Double
    var latencyP99Micros: Double
    /// The median round's client CPU time (user + system) per request, in µs.
    var cpuMicrosPerRequest: Double

    init(_ name: String, _ samples: VariantSamples) {
        self.name = name
        let rates = samples.rounds.map(\.rate)
        requestsPerSecond = Spread(median: median(rates), min: rates.min() ?? 0, max: rates.max() ?? 0)
        let latencies = samples.rounds.flatMap(\.latencies)
        latencyP50Micros = percentile(latencies, 0.50)
        latencyP99Micros = percentile(latencies, 0.99)
        cpuMicrosPerRequest = median(samples.rounds.map(\.cpuMicros))
    }
}

/// One of the targets, checked against the results.
struct TargetReport: Codable, Sendable {
    var target: String
    /// `nil` when the run did not measure it.
    var met: Bool?
    var detail: String
}

extension RunReport {
    /// The header line of the table.
    static let tableHeader =
        "group      workload          conc  variant        req/s median (min-max)   "
        + "p50 µs    p99 µs  CPU µs/req   ratio  ΔCPU µs"

    /// Two lines: the baseline, then the subject with the ratio.
    static func rows(_ result: WorkloadReport) -> String {
        func line(_ lead: String, _ variant: VariantReport) -> String {
            let rate = variant.requestsPerSecond
            return lead + pad(variant.name, 13, left: true)
                + String(
                    format: " %8.0f (%6.0f-%6.0f)  %8.1f  %8.1f  %10.1f", rate.median, rate.min, rate.max,
                    variant.latencyP50Micros, variant.latencyP99Micros, variant.cpuMicrosPerRequest)
        }
        let lead =
            pad(result.group.rawValue, 10, left: true) + " " + pad(result.workload.rawValue, 16, left: true)
            + pad("c\(result.concurrency)", 5) + "  "
        let blank = String(repeating: " ", count: lead.count)
        return line(lead, result.baseline) + "\n"
            + line(blank, result.subject) + String(format: "  %6.2f  %+7.1f", result.ratio, result.cpuDeltaMicros)
    }

    /// Checks the targets against `results` and `streams`.
    static func targets(_ results: [WorkloadReport], streams: [StreamReport]) -> [TargetReport] {
        func pick(_ group: PairGroup) -> [WorkloadReport] {
            results.filter { $0.group == group && [1, 16].contains($0.concurrency) }
        }
        func list(_ rows: [WorkloadReport], _ value: (WorkloadReport) -> String) -> String {
            rows.map { "\($0.label) \(value($0))" }.joined(separator: ", ")
        }
        var targets: [TargetReport] = []
        for (group, name) in [(PairGroup.ahc, "AsyncHTTPClient"), (.urlsession, "URLSession")] {
            let rows = pick(group)
            targets.append(
                TargetReport(
                    target: "Strata over \(name) >= 0.95 x raw req/s at c1 and c16",
                    met: rows.isEmpty ? nil : rows.allSatisfy { $0.ratio >= 0.95 },
                    detail: list(rows) { String(format: "%.2f", $0.ratio) }))
            targets.append(
                TargetReport(
                    target: "client CPU per request <= raw + 5 µs on \(name)",
                    met: rows.isEmpty ? nil : rows.allSatisfy { $0.cpuDeltaMicros <= 5 },
                    detail: list(rows) { String(format: "%+.1f µs", $0.cpuDeltaMicros) }))
        }
        let openapi = pick(.openapi)
        targets.append(
            TargetReport(
                target: "the generated client over Strata >= 0.95 x over OpenAPIAsyncHTTPClient req/s "
                    + "at c1 and c16",
                met: openapi.isEmpty ? nil : openapi.allSatisfy { $0.ratio >= 0.95 },
                detail: list(openapi) { String(format: "%.2f (CPU %+.1f µs)", $0.ratio, $0.cpuDeltaMicros) }))
        let grpc = pick(.grpc)
        targets.append(
            TargetReport(
                target: "GRPCNetworker >= 0.95 x the generated grpc-swift client req/s at c1 and c16",
                met: grpc.isEmpty ? nil : grpc.allSatisfy { $0.ratio >= 0.95 },
                detail: list(grpc) { String(format: "%.2f (CPU %+.1f µs)", $0.ratio, $0.cpuDeltaMicros) }))
        let decode = results.first { $0.group == .decode && $0.workload == .photos }
        targets.append(
            TargetReport(
                target: "decode + two-layer mapping <= 1.10 x plain JSONDecoder on the 1 MB payload",
                met: decode.map { $0.ratio > 0 && 1 / $0.ratio <= 1.10 },
                detail: decode.map {
                    String(
                        format: "%.2f x (%.0f vs %.0f µs per body)", 1 / $0.ratio,
                        1e6 / $0.subject.requestsPerSecond.median,
                        1e6 / $0.baseline.requestsPerSecond.median)
                } ?? ""))
        let pipeline = results.first { $0.group == .mock && $0.workload == .user && $0.concurrency == 1 }
        targets.append(
            TargetReport(
                target: "mock pipeline, 5 middleware, decoding: <= 10 µs per request",
                met: pipeline.map { 1e6 / $0.subject.requestsPerSecond.median <= 10 },
                detail: pipeline.map {
                    String(
                        format: "%.1f µs per request sequential (CPU %.1f µs); allocations: "
                            + "scripts/callgrind.sh", 1e6 / $0.subject.requestsPerSecond.median,
                        $0.subject.cpuMicrosPerRequest)
                } ?? ""))
        for (group, name, share) in [(PairGroup.cacheMemory, "the memory store", 0.05), (.cacheSQLite, "SQLite", 0.20)]
        {
            let hit = results.first { $0.group == group && $0.concurrency == 1 }
            targets.append(
                TargetReport(
                    target: "a cache hit from \(name) costs <= \(Int(share * 100))% of a loopback request",
                    met: hit.map { $0.ratio > 0 && 1 / $0.ratio <= share },
                    detail: hit.map {
                        String(
                            format: "%.1f%% (%.1f vs %.1f µs sequential)", 100 / $0.ratio,
                            1e6 / $0.subject.requestsPerSecond.median,
                            1e6 / $0.baseline.requestsPerSecond.median)
                    } ?? ""))
        }
        let growths = streams.compactMap { stream in stream.peakGrowthMB.map { (stream.group, $0) } }
        targets.append(
            TargetReport(
                target: "streaming 100 MB through Networker.stream: peak RSS growth < 32 MB",
                met: growths.isEmpty ? nil : growths.allSatisfy { $0.1 < 32 },
                detail: growths.isEmpty
                    ? "not measured (needs the ahc or urlsession group, and Linux)"
                    : growths.map { "\($0.0.rawValue) " + String(format: "%+.1f MB", $0.1) }.joined(separator: ", ")))
        return targets
    }

    /// The targets, one per line.
    static func format(_ targets: [TargetReport]) -> String {
        targets.map { target in
            let verdict =
                switch target.met {
                case true?: "met    "
                case false?: "NOT MET"
                case nil: "n/a    "
                }
            return "  \(verdict)  \(target.target)" + (target.detail.isEmpty ? "" : "\n             \(target.detail)")
        }.joined(separator: "\n")
    }
}

private func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + padding : padding + text
}

/// Writes `value` to `path` as pretty-printed JSON with sorted keys (`--json`), and says so.
func writeJSON(_ value: some Encodable, to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(value).write(to: URL(fileURLWithPath: path))
    print("wrote \(path)")
}

/// A row of a mode's table: the first column left-aligned in 44 characters, the others
/// right-aligned in 12.
func tableRow(_ first: String, _ rest: [String]) -> String {
    "  " + first.padding(toLength: 44, withPad: " ", startingAt: 0)
        + rest.map { String(repeating: " ", count: max(0, 12 - $0.count)) + $0 }.joined(separator: " ")
}

/// Prints `table`, then writes `report` to `jsonPath` when one was given; returns the exit
/// status (1 when the JSON cannot be written, named after `mode`).
func printReport(_ table: String, _ report: some Encodable, jsonPath: String?, mode: String) -> Int32 {
    print(table)
    guard let jsonPath else { return 0 }
    do {
        try writeJSON(report, to: jsonPath)
        return 0
    } catch {
        printError("strata-bench \(mode): --json \(jsonPath): \(error)")
        return 1
    }
}
