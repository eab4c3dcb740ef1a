import Foundation
import Strata
import StrataTestSupport
import Testing

/// A run of hostile cases over one transport, in the process that makes it: the side of
/// ``HostileCorpus`` that a child process runs. Each case is one `GET` through a
/// ``Networker`` with the run's deadline and no redirect step, its start and its outcome
/// written to the log as they happen, so that the parent knows which cases were in
/// flight when the child crashed. Lanes keep the cases apart: bytes one case leaves on a
/// connection can reach only the next case of its lane, over a connection the client
/// chose to reuse, which the server records.
struct HostileRun: Codable, Sendable {
    /// The transport the cases go through.
    var transport: String
    /// The cases, by seed.
    var seeds: [UInt64]
    /// How many cases are in flight at once: the number of lanes, each a host of its own
    /// that runs its share of the cases one after another.
    var concurrency: Int
    /// The call's deadline, in milliseconds.
    var deadlineMilliseconds: Int
    /// Where to write the log (``HostileLogLine``s, one JSON object per line).
    var logPath: String

    /// The environment variable with the path of a run's JSON, for a child process.
    static let jobVariable = "STRATA_HOSTILE_JOB"

    /// The run this process was started to make, when it is such a child.
    static var requested: HostileRun? {
        guard let path = ProcessInfo.processInfo.environment[jobVariable],
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return try? JSONDecoder().decode(HostileRun.self, from: data)
    }

    /// Runs the cases, writing each start and outcome to the log, and the end with the
    /// peak growth of the resident set and the connections reused.
    func run() async throws {
        guard let transport = TransportKind(rawValue: transport) else { throw HostileRunError.unknownTransport }
        let log = try HostileLog(path: logPath)
        let sampler = PeakRSSSampler()
        let reuses = try await HostileServer.with(lanes: concurrency, cases: { HostileCase(seed: $0) }) { server in
            try await transport.with { client in
                var configuration = Networker.Configuration()
                configuration.timeout = .milliseconds(deadlineMilliseconds)
                configuration.defaultMiddleware = []  // a `3xx` is an answer like any other here
                let networker = Networker(transport: client, configuration: configuration)
                // One lane per host, each case after the one before it: a case meets only
                // the connections of its own lane, left as the lane's previous case left them.
                await withTaskGroup(of: Void.self) { group in
                    for lane in 0..<concurrency {
                        group.addTask {
                            for seed in stride(from: lane, to: seeds.count, by: concurrency).map({ seeds[$0] }) {
                                log.write(.started(seed))
                                let (observation, elapsed) = await FaultExchange.run(
                                    server.url(for: seed, lane: lane), with: networker)
                                log.write(
                                    .finished(HostileResult(seed: seed, observation: observation, elapsed: elapsed)))
                            }
                        }
                    }
                }
            }
            return (server.reuses, Set(seeds).subtracting(server.answered))
        }
        log.write(
            .ended(
                peakGrowth: sampler.stop(), reuses: reuses.0.map { [$0.previous, $0.next] },
                unanswered: reuses.1.sorted()))
    }
}

enum HostileRunError: Error {
    case unknownTransport
}

/// What one case came to.
struct HostileResult: Codable, Sendable {
    let seed: UInt64
    let observation: FaultObservation
    let elapsedMilliseconds: Int

    init(seed: UInt64, observation: FaultObservation, elapsed: Duration) {
        self.seed = seed
        self.observation = observation
        let parts = elapsed.components
        elapsedMilliseconds = Int(parts.seconds) * 1000 + Int(parts.attoseconds / 1_000_000_000_000_000)
    }
}

/// A line of a run's log.
enum HostileLogLine: Codable, Sendable {
    case started(UInt64)
    case finished(HostileResult)
    /// The end of a run: the peak growth of the resident set, the connections reused
    /// (`[previous, next]`), the cases whose request never reached the server.
    case ended(peakGrowth: Int, reuses: [[UInt64]], unanswered: [UInt64])
}

/// The log a child writes line by line, each line written whole with one `write`, so
/// that what was written before a crash is all there. `@unchecked Sendable`: the file
/// handle is written only while holding `lock`.
final class HostileLog: @unchecked Sendable {
    private let lock = NSLock()
    private let handle: FileHandle

    init(path: String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    func write(_ line: HostileLogLine) {
        guard var data = try? JSONEncoder().encode(line) else { return }
        data.append(0x0A)
        lock.withLock { handle.write(data) }
    }

    /// The lines of the log at `path` (a line cut off by a crash is skipped).
    static func read(_ path: String) -> [HostileLogLine] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.split(separator: 0x0A).compactMap { try? JSONDecoder().decode(HostileLogLine.self, from: $0) }
    }
}

/// The side of ``HostileCorpus`` that runs in a child process; skipped anywhere else.
@Suite("Hostile responses in a child process")
struct HostileChildTests {
    @Test(.enabled(if: HostileRun.requested != nil, "runs only in a child process of HostileResponseTests"))
    func runRequestedCases() async throws {
        try await #require(HostileRun.requested).run()
    }
}
