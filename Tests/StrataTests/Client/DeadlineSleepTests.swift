import Foundation
import Testing
@testable import Strata

/// `Deadline.sleep`: the wait retry backoffs use, released the moment it ends.
@Suite(.serialized) struct DeadlineSleepTests {
    @Test func aWaitLastsItsDuration() async throws {
        let start = ContinuousClock.now
        try await Deadline.sleep(for: .milliseconds(30))
        #expect(ContinuousClock.now - start >= .milliseconds(30))
    }

    @Test func aCancelledWaitThrowsAtOnce() async throws {
        let wait = Task { try await Deadline.sleep(for: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(20))
        let cancelledAt = ContinuousClock.now
        wait.cancel()
        let result = await wait.result
        #expect(ContinuousClock.now - cancelledAt < .seconds(5))
        #expect(throws: CancellationError.self) { try result.get() }
    }

    /// 100,000 cancelled 60 s waits leave nothing behind: a cancelled `Task.sleep` keeps
    /// its timer until its deadline on Linux (about 55 MB for as many 60 s sleeps).
    @Test func cancelledWaitsLeaveNoMemoryBehind() async throws {
        func residentBytes() -> Int {
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        guard residentBytes() > 0 else { return }  // no /proc: not Linux
        func batch() async {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0 ..< 1000 { group.addTask { try? await Deadline.sleep(for: .seconds(60)) } }
                group.cancelAll()
            }
        }
        for _ in 0 ..< 5 { await batch() }  // warm-up
        let before = residentBytes()
        for _ in 0 ..< 100 { await batch() }
        let growth = residentBytes() - before
        #expect(growth < 25 << 20, "grew by \(growth >> 20) MiB")
    }
}
