import Foundation
import Strata
import StrataFaultServer
import StrataTestSupport
import Testing

/// Runs one fault cell of the memory suite in a child process of its own: this test
/// binary again, running only ``FaultCellChildTests``, which writes a ``FaultCellReport``.
///
/// A process of its own gives a clean measure of the resident set, and keeps what the
/// cell does to the process away from the other tests. Run in the test process, a
/// `URLSession` inflating the gzip bomb or buffering an endless body held up the other
/// tests running beside it — `URLSession` and AsyncHTTPClient ones alike — for 8 to 11 s
/// past their deadlines (FoundationNetworking's sessions appear to share one work queue,
/// and cancelling a task to wait for it).
enum FaultCellProcess {
    /// The environment variable naming the cell a child process runs (``FaultPair/description``).
    static let cellVariable = "STRATA_FAULT_CELL"
    /// The environment variable with the path a child process writes its report to.
    static let reportVariable = "STRATA_FAULT_CELL_REPORT"
    /// How long a child process may run before it is terminated.
    static let childTimeout = Duration.seconds(60)

    /// A child process ended without writing its report.
    struct NoReport: Error, CustomStringConvertible {
        let pair: FaultPair
        let status: Int32
        var description: String { "the child process for \(pair) exited with \(status) and no report" }
    }

    /// The cell this process was started to run, when it is such a child.
    static var requestedCell: FaultPair? {
        ProcessInfo.processInfo.environment[cellVariable].flatMap(FaultPair.init)
    }

    /// Runs `pair` in a child process where there is `/proc/self/exe` (Linux), and in
    /// this process elsewhere.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func run(_ pair: FaultPair) async throws -> FaultCellReport {
        guard let executable = ChildProcess.testBinary else { return try await measure(pair) }
        let reportURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-fault-cell-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: reportURL) }
        let process = ChildProcess.make(
            executable: executable, filter: "FaultCellChildTests",
            environment: [cellVariable: pair.description, reportVariable: reportURL.path])
        try await ChildProcess.run(process, timeout: childTimeout)
        guard let data = try? Data(contentsOf: reportURL) else {
            throw NoReport(pair: pair, status: process.terminationStatus)
        }
        return try JSONDecoder().decode(FaultCellReport.self, from: data)
    }

    /// Runs `pair` in this process: a fresh server and transport, then one call while
    /// the resident set is sampled.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func measure(_ pair: FaultPair) async throws -> FaultCellReport {
        _ = try GzipBodies.bomb.readableBytes  // built once per process, before measuring
        return try await FaultServer.with { server in
            try await pair.transport.with { client in
                let networker = FaultExchange.networker(over: client)
                let url = server.url(for: pair.fault)
                let ((observation, elapsed), growth) = await PeakRSSSampler.measure {
                    await FaultExchange.run(url, with: networker)
                }
                return FaultCellReport(observation, elapsed: elapsed, growth: growth)
            }
        }
    }
}

/// The side of ``FaultCellProcess`` that runs in the child process; skipped anywhere else.
@Suite("Fault cell in a child process")
struct FaultCellChildTests {
    @Test(
        .enabled(if: FaultCellProcess.requestedCell != nil, "runs only in a child process of TransportFaultMemoryTests")
    )
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func runRequestedCell() async throws {
        let pair = try #require(FaultCellProcess.requestedCell)
        let path = try #require(ProcessInfo.processInfo.environment[FaultCellProcess.reportVariable])
        let report = try await FaultCellProcess.measure(pair)
        try JSONEncoder().encode(report).write(to: URL(fileURLWithPath: path))
    }
}
