import Testing

/// Keeps the suites that load the machine (bodies streamed at loopback speed, child
/// processes) apart from the suites that time how fast something happens: on two cores,
/// a flood running beside them delays a prompt cancellation by more than a second.
///
/// A suite marked ``Trait/runsAlone`` waits until no suite marked ``Trait/isTimed`` is
/// running, and holds them off while it runs; timed suites run beside each other.
public actor LoadGate {
    /// The gate every suite of the test process goes through.
    public static let shared = LoadGate()

    private var timedRunning = 0
    private var heavyRunning = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` as a timed suite.
    public func timed(_ body: @Sendable () async throws -> Void) async throws {
        while heavyRunning { await wait() }
        timedRunning += 1
        defer {
            timedRunning -= 1
            wakeAll()
        }
        try await body()
    }

    /// Runs `body` with no timed suite running beside it.
    public func alone(_ body: @Sendable () async throws -> Void) async throws {
        while heavyRunning || timedRunning > 0 { await wait() }
        heavyRunning = true
        defer {
            heavyRunning = false
            wakeAll()
        }
        try await body()
    }

    private func wait() async {
        await withCheckedContinuation { waiters.append($0) }
    }

    private func wakeAll() {
        let woken = waiters
        waiters = []
        for waiter in woken { waiter.resume() }
    }
}

/// The ``LoadGate`` role of a suite.
public struct LoadGateTrait: SuiteTrait, TestScoping {
    let runsAlone: Bool

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if runsAlone {
            try await LoadGate.shared.alone(function)
        } else {
            try await LoadGate.shared.timed(function)
        }
    }
}

extension Trait where Self == LoadGateTrait {
    /// The suite loads the machine (CPU, memory, many connections): it runs while no
    /// ``isTimed`` suite does, and beside no other ``runsAlone`` suite.
    public static var runsAlone: Self { LoadGateTrait(runsAlone: true) }
    /// The suite asserts on how long things take: it never runs beside a ``runsAlone`` suite.
    public static var isTimed: Self { LoadGateTrait(runsAlone: false) }
}
