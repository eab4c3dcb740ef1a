import Dispatch
import Foundation

/// The one deadline mechanism of Strata: a single timer per exchange that cancels
/// the work running under it when the deadline passes, and is released the moment the
/// exchange ends.
///
/// A cancelled `Task.sleep` stays registered with the runtime until its deadline would
/// have passed (on Linux), so racing a sleep against each request keeps memory and
/// timer work alive for the whole timeout after every request. This timer is a
/// `DispatchSourceTimer`: cancelling it removes it at once.
///
/// Work runs under the timer with ``run(_:)``: in a task of its own that the timer
/// cancels when it fires. Several runs may follow one another under one timer (the
/// reads of a streamed body); only one runs at a time.
///
/// `@unchecked Sendable`: `state` is a ``Locked``; `source` is set once in `init` and
/// only cancelled afterwards, which `DispatchSource` allows from any thread.
package final class ExchangeTimer: @unchecked Sendable {
    private struct State {
        var hasFired = false
        /// Cancels the task currently running under the timer.
        var cancelRunning: (@Sendable () -> Void)?
    }

    private let state = Locked(State())
    private let source: any DispatchSourceTimer
    /// When the timer fires.
    package let deadline: ContinuousClock.Instant

    /// Starts a timer that fires at `deadline` (at once when it has passed).
    package init(deadline: ContinuousClock.Instant) {
        self.deadline = deadline
        source = DispatchSource.makeTimerSource(queue: .global())
        let remaining = ContinuousClock.now.duration(to: deadline)
        source.schedule(deadline: .now() + Self.dispatchInterval(remaining), leeway: .milliseconds(1))
        source.setEventHandler { [weak self] in self?.fire() }
        source.activate()
    }

    deinit {
        source.cancel()
    }

    /// Whether the deadline passed while work was running under the timer.
    package var hasFired: Bool { state.withLock { $0.hasFired } }

    /// Stops the timer and releases it; it never fires afterwards.
    package func cancel() {
        source.cancel()
    }

    /// Runs `operation` in a task that is cancelled when the deadline passes, or when
    /// the calling task is cancelled.
    ///
    /// Either way the call returns at once, without waiting for the operation to honour
    /// the cancellation: an operation that ignores it (a transport that never returns)
    /// cannot hold the caller past the deadline.
    /// - Returns: the operation's result, and whether the deadline passed while it ran
    ///   (then the result is usually a cancellation error, to be reported as a timeout).
    package func run<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Value
    ) async -> (result: Result<Value, any Error>, timedOut: Bool) {
        guard deadline > .now else {
            state.withLock { $0.hasFired = true }
            return (.failure(CancellationError()), true)
        }
        let outcome = Outcome<Value>()
        let task = Task {
            do {
                outcome.deliver(.success(try await operation()))
            } catch {
                outcome.deliver(.failure(error))
            }
        }
        let stop: @Sendable () -> Void = {
            task.cancel()
            outcome.deliver(.failure(CancellationError()))
        }
        let alreadyFired = state.withLock { state in
            state.cancelRunning = stop
            return state.hasFired
        }
        if alreadyFired { stop() }
        let result = await withTaskCancellationHandler {
            await outcome.value()
        } onCancel: {
            stop()
        }
        let timedOut = state.withLock { state in
            state.cancelRunning = nil
            return state.hasFired
        }
        return (result, timedOut)
    }

    private func fire() {
        let cancelRunning = state.withLock { state in
            state.hasFired = true
            return state.cancelRunning
        }
        cancelRunning?()
    }

    /// `duration` for `DispatchTime` arithmetic, zero when negative, saturating.
    static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return .nanoseconds(0) }
        guard seconds < Int64(Int.max / 1_000_000_000) - 1 else { return .never }
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}

/// The first result delivered for a run under an ``ExchangeTimer``: the operation's
/// own, or the cancellation that the timer or the caller delivered first.
private final class Outcome<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result<Value, any Error>, Never>?
        var result: Result<Value, any Error>?
        var isResumed = false

        /// The waiting continuation, once, when there is both a waiter and a result.
        mutating func takeWaiter() -> CheckedContinuation<Result<Value, any Error>, Never>? {
            guard !isResumed, result != nil, let continuation else { return nil }
            isResumed = true
            self.continuation = nil
            return continuation
        }
    }

    private let state = Locked(State())

    /// Records `result` unless one was delivered before, and wakes the waiter.
    func deliver(_ result: Result<Value, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<Value, any Error>, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            return state.takeWaiter()
        }
        waiter?.resume(returning: result)
    }

    /// Waits for the first delivered result.
    func value() async -> Result<Value, any Error> {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<Value, any Error>? in
                state.continuation = continuation
                guard state.takeWaiter() != nil else { return nil }
                return state.result
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// Runs work within a deadline: the helper every deadline in Strata goes through.
package enum Deadline {
    /// Runs `operation` under an ``ExchangeTimer`` for `deadline`, released when it
    /// ends; without a deadline, runs it directly.
    /// - Returns: the operation's result, and whether the deadline passed while it ran.
    package static func run<Value: Sendable>(
        until deadline: ContinuousClock.Instant?,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async -> (result: Result<Value, any Error>, timedOut: Bool) {
        let timer = deadline.map(ExchangeTimer.init)
        defer { timer?.cancel() }
        return await run(under: timer, operation)
    }

    /// Runs `operation` under `timer`, which stays armed afterwards; without a timer,
    /// runs it directly.
    package static func run<Value: Sendable>(
        under timer: ExchangeTimer?,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async -> (result: Result<Value, any Error>, timedOut: Bool) {
        if let timer { return await timer.run(operation) }
        do {
            return (.success(try await operation()), false)
        } catch {
            return (.failure(error), false)
        }
    }
}
