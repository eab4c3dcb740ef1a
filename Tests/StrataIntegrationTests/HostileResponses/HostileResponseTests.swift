import Foundation
import Strata
import StrataTestSupport
import Testing

/// Hostile responses over both transports: a fixed set of seeds by default, a long run
/// with `STRATA_HOSTILE_CASES` (and `STRATA_HOSTILE_SEED` for another set,
/// `STRATA_HOSTILE_TRANSPORT=asyncHTTPClient` for one transport, `STRATA_HOSTILE_ONLY` for
/// chosen seeds, `STRATA_HOSTILE_REPORT=1` for the counts). Every case
/// must end in a typed result within the deadline (a success only with the bytes the
/// framing allows, see ``HostileExpectation``), with no connection reused after a
/// framing error and the resident set bounded. Both transports crash on some responses
/// (FoundationNetworking on a head cut short, AsyncHTTPClient 1.37 on a status under 100
/// with a body): each one's crash sites are kept as known issues, a new site fails, and
/// the regression input of a known one fails the test once the crash is fixed upstream.
@Suite("Hostile responses", .runsAlone)
struct HostileResponseTests {
    static let environment = ProcessInfo.processInfo.environment
    /// Generated cases per transport, besides the regression inputs.
    static let count = environment["STRATA_HOSTILE_CASES"].flatMap(Int.init) ?? 300
    /// The seed the cases' seeds are drawn from.
    static let base = environment["STRATA_HOSTILE_SEED"].flatMap(UInt64.init) ?? 20_261_126
    /// Only these seeds (`STRATA_HOSTILE_ONLY=1,2,3`), to reproduce a failing case.
    static let only = environment["STRATA_HOSTILE_ONLY"].map { $0.split(separator: ",").compactMap { UInt64($0) } }
    static let concurrency = environment["STRATA_HOSTILE_CONCURRENCY"].flatMap(Int.init) ?? 6
    static let deadlineMilliseconds = environment["STRATA_HOSTILE_DEADLINE_MS"].flatMap(Int.init) ?? 2000

    /// A known way a transport stops the process: where (as ``HostileCorpus`` names it),
    /// the regression input that shows it, and why.
    struct KnownCrash {
        let site: String
        let regression: UInt64
        let why: Comment
    }

    /// Where each transport stops the process on a hostile response (Swift 6.3.1,
    /// AsyncHTTPClient 1.37.0).
    static let knownCrashes: [TransportKind: [KnownCrash]] = [
        .urlSession: [
            KnownCrash(
                site: "NativeProtocol.swift:240: Transfer completed, but there's no response.", regression: 1,
                why: "FoundationNetworking stops the process on half a head, then FIN"),
            KnownCrash(
                site: "Illegal instruction in libFoundationNetworking.so+0xb2f60", regression: 9,
                why:
                    "FoundationNetworking traps in a curl callback (_EasyHandle.setupCallbacks) on a Content-Length of Int64.max"
            ),
        ],
        .asyncHTTPClient: [
            KnownCrash(
                site: "HTTPRequestStateMachine.swift:595: How can we receive a response body, if we haven't received "
                    + "a head. Invalid state: running(.endSent, .waitingForHead)",
                regression: 7,
                why:
                    "AsyncHTTPClient ignores a head with a status under 100 as informational, then stops the process on its body"
            ),
            KnownCrash(
                site: "HTTPRequestStateMachine.swift:627: How can we receive a response end, if we haven't a received "
                    + "a head. Invalid state: running(.endSent, .waitingForHead)",
                regression: 10,
                why:
                    "AsyncHTTPClient ignores a head with a status under 100 as informational, then stops the process on its end"
            ),
        ],
    ]

    @Test(
        .enabled(if: ChildProcess.testBinary != nil, "needs /proc/self/exe to run the cases in child processes"),
        .timeLimit(.minutes(300)),  // the long run: 100,000 cases take about 90 minutes here
        arguments: TransportKind.allCases)
    func corpus(_ transport: TransportKind) async throws {
        if let only = Self.environment["STRATA_HOSTILE_TRANSPORT"], only != transport.rawValue { return }
        let seeds = Self.only ?? HostileCase.seeds(count: Self.count, base: Self.base)
        let start = ContinuousClock.now
        let report = try await HostileCorpus.run(
            seeds, over: transport, concurrency: Self.concurrency, deadlineMilliseconds: Self.deadlineMilliseconds)
        if Self.environment["STRATA_HOSTILE_REPORT"] != nil {
            print("HOSTILE-REPORT \(transport) in \(start.duration(to: .now))\n\(report.summary)")
        }

        #expect(report.results.count + report.crashes.count + report.hangs.count == Set(seeds).count)
        if Self.only != nil {
            for (seed, result) in report.results { print("\(HostileCase(seed: seed))\n  → \(result.observation)") }
        }
        for seed in report.hangs.sorted() {
            Issue.record("a hang: \(HostileCase(seed: seed))")
        }
        for (seed, violation) in report.violations(deadline: .milliseconds(Self.deadlineMilliseconds)) {
            let reused = report.reuses.first { $0.next == seed }.map {
                "\n  over a connection that first answered \(HostileCase(seed: $0.previous))"
            }
            let unanswered = report.unanswered.contains(seed) ? "\n  (its request never reached the server)" : ""
            Issue.record("\(violation)\n  for \(HostileCase(seed: seed))\(reused ?? "")\(unanswered)")
        }
        for reuse in report.reusesAfterFramingErrors {
            Issue.record("a connection reused after a framing error: \(HostileCase(seed: reuse.previous))")
        }
        #expect(report.peakGrowth < 256 * 1_048_576, "peak RSS growth \(report.peakGrowth) bytes")
        let known = Self.knownCrashes[transport] ?? []
        for (seed, site) in report.crashes where !known.contains(where: { $0.site == site }) {
            Issue.record("a crash at \(site): \(HostileCase(seed: seed))")
        }
        if Self.only == nil {
            for crash in known {
                withKnownIssue(crash.why) {
                    #expect(report.crashes[crash.regression] == nil)
                }
            }
        }
    }

    /// The reference reading the corpus is judged by, on inputs with one right answer.
    @Test func expectations() {
        func expectation(_ text: String, _ ending: HostileCase.Ending = .fin) -> HostileExpectation {
            HostileExpectation(HostileCase(seed: 0, bytes: Array(text.utf8), ending: ending))
        }
        let ok = Array("ok".utf8)
        #expect(expectation("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok!") == .exact(status: 200, body: ok))
        #expect(expectation("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok") == .failure)
        #expect(expectation("HTTP/1.1 200 OK\r\nContent-Len") == .failure)
        #expect(expectation("HTTP/1.1 200 OK\nContent-Length: 2\n\nok") == .any)
        #expect(expectation("HTTP/1.1 200 OK\r\n\r\nok") == .exact(status: 200, body: ok))
        #expect(expectation("HTTP/1.1 200 OK\r\n\r\nok", .reset) == .failure)
        #expect(expectation("HTTP/1.1 200 OK\r\n\r\nok", .silence) == .failure)
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        #expect(expectation(chunked + "2\r\nok\r\n0\r\n\r\n") == .exact(status: 200, body: ok))
        #expect(expectation(chunked + "2\r\nok\r\n0\r\nX-T: 1\r\n\r\n") == .exact(status: 200, body: ok))
        #expect(expectation(chunked + "2\r\nok\r\n0\r\n") == .failure)
        #expect(expectation(chunked + "7FFFFFFFFFFFFFFF\r\nok\r\n0\r\n\r\n") == .failure)
        #expect(expectation(chunked + "FFFFFFFFFFFFFFFFFFFF\r\nok\r\n0\r\n\r\n") == .any)
        #expect(expectation("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok") == .any)
        #expect(expectation("HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nok") == .any)
        #expect(expectation("HTTP/1.1 200 OK\r\nX-Fold: a\r\n b\r\nContent-Length: 2\r\n\r\nok") == .any)

        let hostile = HostileCase(seed: 0, bytes: Array("HTTP/1.1 200 OK\r\n\r\nok".utf8), ending: .fin)
        func success(_ body: String) -> FaultObservation {
            FaultObservation(outcome: .success(200, body: body), reasonPhrase: "OK", detail: nil)
        }
        #expect(HostileExpectation.exact(status: 200, body: ok).violation(by: success("ok"), for: hostile) == nil)
        #expect(HostileExpectation.failure.violation(by: success("ok"), for: hostile) != nil)
        #expect(HostileExpectation.any.violation(by: success("HTTP ok"), for: hostile) == nil)
        #expect(HostileExpectation.any.violation(by: success("ko"), for: hostile) != nil)
    }

    /// The same seed gives the same case; the half-head regression input is the issue's bytes.
    @Test func casesComeBackFromTheirSeeds() {
        let seeds = HostileCase.seeds(count: 50, base: 7)
        #expect(seeds == HostileCase.seeds(count: 50, base: 7))
        #expect(seeds.map { HostileCase(seed: $0) } == seeds.map { HostileCase(seed: $0) })
        #expect(Set(seeds.dropFirst(HostileCase.regressions.count).map { HostileCase(seed: $0).bytes }).count > 40)
        #expect(
            HostileCase(seed: 1).bytes == Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Len".utf8)
        )
    }
}
