import Testing

@testable import Strata
@testable import StrataCore

/// Work left for after a call: one piece per id at a time, each gone when it ends, none
/// started once the client cancelled its work.
@Suite struct BackgroundWorkTests {
    @Test func onePiecePerIDUntilItEnds() async throws {
        let work = BackgroundWork()
        let runs = Locked<[String]>([])
        let gate = Locked<CheckedContinuation<Void, Never>?>(nil)
        work.start(id: BackgroundWork.ID("a")) {
            await withCheckedContinuation { continuation in gate.withLock { $0 = continuation } }
            runs.withLock { $0.append("a1") }
        }
        work.start(id: BackgroundWork.ID("a")) { runs.withLock { $0.append("a2") } }  // a is under way: not started
        work.start(id: BackgroundWork.ID(2)) { runs.withLock { $0.append("2") } }
        while gate.withLock({ $0 == nil }) { await Task.yield() }
        #expect(work.count >= 1)
        gate.withLock { $0?.resume() }
        await work.waitForAll()
        #expect(work.count == 0)
        #expect(runs.withLock { $0.sorted() } == ["2", "a1"])
        work.start(id: BackgroundWork.ID("a")) { runs.withLock { $0.append("a3") } }  // a ended: starts again
        await work.waitForAll()
        #expect(runs.withLock { $0.sorted() } == ["2", "a1", "a3"])
    }

    @Test func cancellingStopsWhatRunsAndRefusesMore() async throws {
        let work = BackgroundWork()
        let ended = Locked<[String]>([])
        work.start(id: BackgroundWork.ID("long")) {
            try? await Deadline.sleep(for: .seconds(60))
            ended.withLock { $0.append(Task.isCancelled ? "long cancelled" : "long ran out") }
        }
        work.cancelAll()
        work.start(id: BackgroundWork.ID("late")) { ended.withLock { $0.append("late") } }
        await work.waitForAll()
        #expect(ended.withLock { $0 } == ["long cancelled"])
        #expect(work.count == 0)
    }
}
