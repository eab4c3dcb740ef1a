import Foundation
import Testing

/// What ends a call in the ending tables (`StreamedReadEndingTests`, `WaitEndingTests`,
/// `GRPCEndingTests`…): its deadline passes, its task is cancelled, or the server drops
/// the connection.
public enum CallEndingCause: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// The call's deadline (or, where a connection outlives it, its idle timeout) passes.
    case deadlinePasses
    /// The task that makes the call, or reads it, is cancelled.
    case taskCancelled
    /// The server drops the connection.
    case serverDrops

    public var testDescription: String { rawValue }
}

extension CallEndingCause {
    /// How long after its deadline or its cancellation a call in the ending tables may end:
    /// 100 ms when the tables run on their own (`STRATA_TIMING_TESTS=1`, as `.ci/run` runs
    /// them, where they end within 20 ms), 1 s beside the rest of the tests, where two cores
    /// shared with a thousand tests delay a wake-up by hundreds of milliseconds.
    public static var margin: Duration {
        ProcessInfo.processInfo.environment["STRATA_TIMING_TESTS"] == nil ? .seconds(1) : .milliseconds(100)
    }
}

/// What a call of an ending table threw, and how long it took to end: from its start when
/// it ended on its own (its deadline, a server that drops by itself), from the moment the
/// test ended it otherwise.
public struct CallEndingOutcome: Sendable {
    /// What the call threw; `nil` when it returned.
    public var thrown: (any Error)?
    /// From the start, or from the test's cancellation or drop, to the end.
    public var elapsed: Duration
}

extension CallEndingCause {
    /// Runs `call` in a task of its own and makes this cause happen to it: a cancellation
    /// cancels the task `delay` after the start, once `ready` returns; a drop runs `drop`
    /// then, when there is one (without, the server drops on its own). A deadline is the
    /// call's own.
    public func outcome(
        of call: @escaping @Sendable () async throws -> Void,
        after delay: Duration,
        ready: () async throws -> Void = {},
        drop: (() async -> Void)? = nil
    ) async throws -> CallEndingOutcome {
        let calling = Task { () -> (any Error)? in
            do {
                try await call()
                return nil
            } catch {
                return error
            }
        }
        var from = ContinuousClock.now
        if self == .taskCancelled || (self == .serverDrops && drop != nil) {
            try await Task.sleep(for: delay)
            try await ready()
            from = .now
            if self == .taskCancelled { calling.cancel() } else { await drop?() }
        }
        let thrown = await calling.value
        return CallEndingOutcome(thrown: thrown, elapsed: from.duration(to: .now))
    }
}
