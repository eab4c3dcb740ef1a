import Testing
@testable import Strata

/// One background revalidation per key at a time, each gone when it ends.
@Suite struct BackgroundRevalidationsTests {
    @Test func oneTaskPerKeyUntilItEnds() async throws {
        let revalidations = BackgroundRevalidations()
        let runs = Locked<[String]>([])
        let gate = Locked<CheckedContinuation<Void, Never>?>(nil)
        let a = try #require(CacheKey(method: "GET", scheme: "https", authority: "a.test", path: "/"))
        let b = try #require(CacheKey(method: "GET", scheme: "https", authority: "b.test", path: "/"))
        revalidations.start(a) {
            await withCheckedContinuation { continuation in gate.withLock { $0 = continuation } }
            runs.withLock { $0.append("a1") }
        }
        revalidations.start(a) { runs.withLock { $0.append("a2") } }  // a is under way: not started
        revalidations.start(b) { runs.withLock { $0.append("b") } }
        while gate.withLock({ $0 == nil }) { await Task.yield() }
        gate.withLock { $0?.resume() }
        await revalidations.waitForAll()
        #expect(revalidations.count == 0)
        #expect(runs.withLock { $0.sorted() } == ["a1", "b"])
        revalidations.start(a) { runs.withLock { $0.append("a3") } }  // a ended: starts again
        await revalidations.waitForAll()
        #expect(runs.withLock { $0.sorted() } == ["a1", "a3", "b"])
    }
}
