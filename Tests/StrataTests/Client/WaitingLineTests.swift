import Foundation
import Testing

@testable import Strata
@testable import StrataCore

/// ``WaitingLine`` driven by its events alone: grants, a full line, deadlines, cancellations.
@Suite struct WaitingLineTests {
    /// An owner of a line: tokens to hand out, granted to waiters in line order.
    struct Owner {
        var tokens = Tokens()
        var line = WaitingLine<String, Int>(limit: 3)
    }

    struct Tokens {
        var left = 0
        var handedOut = 0

        mutating func take() -> Int? {
            guard left > 0 else { return nil }
            left -= 1
            handedOut += 1
            return handedOut
        }
    }

    let owner = Strata.Locked(Owner())

    func wait(_ key: String, priority: Int = 0, until deadline: ContinuousClock.Instant? = nil) async throws -> Int {
        try await owner.wait(in: \.line, for: key, priority: priority, until: deadline) { $0.tokens.take() }
    }

    /// Adds `count` tokens and grants them to waiters in line order (waiters for `only`, if given).
    func release(_ count: Int, only key: String? = nil) {
        let granted = owner.withLock { owner in
            owner.tokens.left += count
            return owner.line.grant { waiterKey in key == nil || waiterKey == key ? owner.tokens.take() : nil }
        }
        for waiter in granted { waiter.resume() }
    }

    func waitUntilQueued(_ count: Int) async throws {
        while owner.withLock({ $0.line.count }) < count { try await Task.sleep(for: .milliseconds(1)) }
    }

    @Test func aGrantAvailableNowIsTakenWithoutQueueing() async throws {
        owner.withLock { $0.tokens.left = 1 }
        #expect(try await wait("a") == 1)
        #expect(owner.withLock { $0.line.count } == 0)
    }

    @Test func waitersAreGrantedByPriorityThenArrival() async throws {
        let low = Task { try await wait("low", priority: 0) }
        try await waitUntilQueued(1)
        let high = Task { try await wait("high", priority: 5) }
        try await waitUntilQueued(2)
        let lowAgain = Task { try await wait("low again", priority: 0) }
        try await waitUntilQueued(3)
        #expect(owner.withLock { $0.line.keys } == ["high", "low", "low again"])
        release(1)
        #expect(try await high.value == 1)
        release(2)
        #expect(try await low.value == 2)
        #expect(try await lowAgain.value == 3)
        #expect(owner.withLock { $0.line.count } == 0)
    }

    @Test func aGrantForOneKeySkipsWaitersForAnother() async throws {
        let a = Task { try await wait("a") }
        try await waitUntilQueued(1)
        let b = Task { try await wait("b") }
        try await waitUntilQueued(2)
        release(1, only: "b")
        #expect(try await b.value == 1)
        #expect(owner.withLock { $0.line.keys } == ["a"])
        release(1)
        #expect(try await a.value == 2)
    }

    @Test func aFullLineRefusesAtOnce() async throws {
        let waiters = (0..<3).map { index in Task { try await wait("w\(index)") } }
        try await waitUntilQueued(3)
        await #expect(throws: WaitingLineRefusal.full(limit: 3)) { try await wait("one too many") }
        release(3)
        #expect(try await waiters.asyncMap { try await $0.value }.sorted() == [1, 2, 3])
    }

    @Test func aWaiterLeavesAtItsDeadlineAsTheCallsTimeout() async throws {
        let start = ContinuousClock.now
        let error = await #expect(throws: TransportError.self) {
            try await wait("late", until: start + .milliseconds(50))
        }
        #expect(error?.kind == .timedOut)
        #expect(start.duration(to: .now) >= .milliseconds(50))
        #expect(owner.withLock { $0.line.count } == 0)
        release(1)
        #expect(owner.withLock { $0.tokens.left } == 1)  // no one took the token
    }

    @Test func aDeadlineAlreadyPassedFailsWithoutQueueing() async throws {
        let error = await #expect(throws: TransportError.self) { try await wait("late", until: .now - .seconds(1)) }
        #expect(error?.kind == .timedOut)
        #expect(owner.withLock { $0.line.count } == 0)
    }

    @Test func aCancelledWaiterLeavesAtOnce() async throws {
        let waiter = Task { try await wait("cancelled", until: .now + .seconds(30)) }
        try await waitUntilQueued(1)
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(owner.withLock { $0.line.count } == 0)
    }

    @Test func aWaiterCancelledBeforeItQueuesNeverQueues() async throws {
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await wait("cancelled early")
        }
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(owner.withLock { $0.line.count } == 0)
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
