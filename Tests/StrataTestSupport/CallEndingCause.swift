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
    /// Whether the tables run on their own (`STRATA_TIMING_TESTS=1`, as `.ci/run` runs them
    /// after the rest), where they end within 20 ms of what ends them. Beside the rest of the
    /// tests, two cores shared with a thousand tests delay a wake-up by up to a second and a
    /// half, and a response head by over a second.
    static var alone: Bool { ProcessInfo.processInfo.environment["STRATA_TIMING_TESTS"] != nil }

    /// How long after its deadline or its cancellation a call in the ending tables may end:
    /// 100 ms on their own, 2 s beside the rest.
    public static var margin: Duration { alone ? .milliseconds(100) : .seconds(2) }

    /// The deadline of a call whose server answers, or takes its request, before the deadline
    /// is to pass (a head, then a body that stalls): 1 s on their own, 3 s beside the rest.
    public static var deadline: Duration { alone ? .seconds(1) : .seconds(3) }
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
