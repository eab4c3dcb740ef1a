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
