import Foundation

/// The one deadline mechanism of Strata: a timer per call (or per wait) that cancels the work
/// running under it when the deadline passes, and is released the moment the call
/// ends.
///
/// A cancelled `Task.sleep` stays registered with the runtime until its deadline would
/// have passed (on Linux), so racing a sleep against each request keeps memory and
/// timer work alive for the whole timeout after every request. An `DeadlineTimer` is an
/// entry in the process-wide ``DeadlineScheduler``: ``cancel()`` removes it at once, and
/// registering or removing it costs a lock and a heap operation, no system call.
///
/// Work runs under the timer with ``run(_:)``: in a task of its own that the timer
/// cancels when it fires. Several runs may follow one another under one timer (the
/// reads of a streamed body); only one runs at a time. The owner must call ``cancel()``
/// when the call ends: until then the scheduler keeps the timer.
///
/// `@unchecked Sendable`: `state` is a ``Locked``; `heapIndex` is only read and written
/// by the scheduler's ``TimerHeap``, which lives behind the scheduler's ``Locked`` (the
/// heap needs each timer's position to remove it in O(log n); a lock of the timer's
/// own around it would be taken once per heap swap).
final class DeadlineTimer: @unchecked Sendable {
    private struct State {
        var hasFired = false
        /// The task currently running under the timer.
        var running: (any RunningWork)?
    }

    private let state = Locked(State())
    /// When the timer fires.
    let deadline: ContinuousClock.Instant
    /// The timer's place in the scheduler's heap, `nil` when it is not pending.
    var heapIndex: Int?

    /// What the timer does when it fires, besides stopping the run under it.
    private let onFire: (@Sendable () -> Void)?

    /// Starts a timer that fires at `deadline` (at once when it has passed) and then calls
    /// `onFire`, if any.
    init(deadline: ContinuousClock.Instant, onFire: (@Sendable () -> Void)? = nil) {
        self.deadline = deadline
        self.onFire = onFire
        DeadlineScheduler.shared.add(self)
    }

    /// Whether the timer is still waiting for its deadline (neither fired nor cancelled).
    var isPending: Bool { DeadlineScheduler.shared.contains(self) }

    /// Whether the deadline passed (the timer fired).
    var hasFired: Bool { state.withLock { $0.hasFired } }

    /// Stops the timer and releases it; it never fires afterwards. Idempotent.
    func cancel() {
        DeadlineScheduler.shared.remove(self)
    }

    /// Runs `operation` in a task that is cancelled when the deadline passes, or when
    /// the calling task is cancelled.
    ///
    /// Either way the call returns at once, without waiting for the operation to honour
    /// the cancellation: an operation that ignores it (a transport that never returns)
    /// cannot hold the caller past the deadline.
    /// - Returns: the operation's result, and whether the deadline passed while it ran
    ///   (then the result is usually a cancellation error, to be reported as a timeout).
    func run<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Value
    ) async -> (result: Result<Value, any Error>, timedOut: Bool) {
        guard deadline > .now else {
            state.withLock { $0.hasFired = true }
            return (.failure(CancellationError()), true)
        }
        let outcome = Outcome<Value>()
        let task = Self.startTask(operation, delivering: outcome)
        let running = RunningTask(task: task, outcome: outcome)
        let alreadyFired = state.withLock { state in
            state.running = running
            return state.hasFired
        }
        if alreadyFired { running.stop() }
        // An operation that finished without suspending (its task ran on this thread up to
        // its end) needs no wait: no cancellation handler, no continuation.
        let result: Result<Value, any Error>
        if let ready = outcome.takeIfDelivered() {
            result = ready
        } else {
            result = await withTaskCancellationHandler {
                await outcome.value()
            } onCancel: {
                running.stop()
            }
        }
        let timedOut = state.withLock { state in
            state.running = nil
            return state.hasFired
        }
        return (result, timedOut)
    }

    /// Starts `operation` in a task of its own that delivers its result to `outcome`, on the
    /// calling thread until its first suspension where the runtime can (`Task.immediate`):
    /// a call that completes without waiting (an in-memory transport) then needs no
    /// thread hop, and one that waits for I/O hops only when its I/O completes, as it would
    /// without a timer. The task's closure is written here, in the form `Task` takes: a
    /// closure passed in would be wrapped in two conversion thunks, two allocations a run.
    private static func startTask<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Value,
        delivering outcome: Outcome<Value>
    ) -> Task<Void, Never> {
        #if compiler(>=6.2)
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
                return Task.immediate { await outcome.deliver(resultOf: operation) }
            }
        #endif
        return Task { await outcome.deliver(resultOf: operation) }
    }

    /// Called by the scheduler once the deadline has passed: `onFire` first (a call's state
    /// learns of its deadline before anyone waiting is resumed), then the run is stopped.
    func fire() {
        let running = state.withLock { state in
            state.hasFired = true
            return state.running
        }
        onFire?()
        running?.stop()
    }
}

/// Work running under an ``DeadlineTimer``, as the timer stops it: a protocol, so the
/// timer holds any run's task and outcome without a closure to allocate.
private protocol RunningWork: Sendable {
    /// Cancels the work and answers its waiter at once with a cancellation.
    func stop()
}

/// A run's task and the outcome its caller waits for.
private struct RunningTask<Value: Sendable>: RunningWork {
    let task: Task<Void, Never>
    let outcome: Outcome<Value>

    func stop() {
        task.cancel()
        outcome.deliver(.failure(CancellationError()))
    }
}

/// The first result delivered for a run under an ``DeadlineTimer``: the operation's
/// own, or the cancellation that the timer or the caller delivered first. A struct over
/// its lock (copies share it), so a run allocates it once.
private struct Outcome<Value: Sendable>: Sendable {
    private struct State {
        /// Resumed exactly once (``isResumed``), so it needs no checking.
        var continuation: UnsafeContinuation<Result<Value, any Error>, Never>?
        var result: Result<Value, any Error>?
        /// Whether the result went to the run's caller, by its continuation or taken at
        /// once (``Outcome/takeIfDelivered()``); it goes once.
        var isResumed = false

        /// The waiting continuation, once, when there is both a waiter and a result.
        mutating func takeWaiter() -> UnsafeContinuation<Result<Value, any Error>, Never>? {
            guard !isResumed, result != nil, let continuation else { return nil }
            isResumed = true
            self.continuation = nil
            return continuation
        }
    }

    private let state = Locked(State())

    /// Runs `operation` and delivers what it returns or throws.
    func deliver(resultOf operation: @Sendable () async throws -> Value) async {
        do {
            deliver(.success(try await operation()))
        } catch {
            deliver(.failure(error))
        }
    }

    /// Records `result` unless one was delivered before, and wakes the waiter.
    func deliver(_ result: Result<Value, any Error>) {
        let waiter = state.withLock { state -> UnsafeContinuation<Result<Value, any Error>, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            return state.takeWaiter()
        }
        waiter?.resume(returning: result)
    }

    /// The first delivered result, taken at once if there is one: the run then has no
    /// waiter to resume.
    func takeIfDelivered() -> Result<Value, any Error>? {
        state.withLock { state in
            guard !state.isResumed, let result = state.result else { return nil }
            state.isResumed = true
            return result
        }
    }

    /// Waits for the first delivered result.
    func value() async -> Result<Value, any Error> {
        await withUnsafeContinuation { continuation in
            let ready = state.withLock { state -> Result<Value, any Error>? in
                state.continuation = continuation
                guard state.takeWaiter() != nil else { return nil }
                return state.result
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// Waits and work bounded by a deadline, on the client's timer: what Strata's own steps use,
/// public so that a step of an app's bounds its waits the same way.
///
/// ```swift
/// // A step waiting for something of its own within the call's deadline:
/// let token = try await Deadline.within(context.deadline) { try await tokens.fresh() }
/// // A backoff that leaves nothing behind when the task is cancelled:
/// try await Deadline.sleep(for: .milliseconds(200))
/// ```
///
/// Every timer is an entry in one process-wide scheduler, released the moment its wait
/// ends: unlike a cancelled `Task.sleep`, which stays registered until its deadline
/// would have passed (on Linux), an abandoned wait costs nothing afterwards.
public enum Deadline {
    /// Whether `deadline` has passed (`false` without one): the one test of it, so that a
    /// call ending at its deadline is a timeout wherever that is asked.
    public static func hasPassed(_ deadline: ContinuousClock.Instant?) -> Bool {
        deadline.map { $0 <= .now } ?? false
    }

    /// Runs `operation` in a task of its own that is cancelled at `deadline`, or when the
    /// calling task is cancelled; without a deadline, runs it directly. Either way the call
    /// returns at once, without waiting for the operation to honour the cancellation: an
    /// operation that ignores it cannot hold the caller past the deadline.
    /// - Returns: the operation's result (a `CancellationError` when it was stopped), and
    ///   whether the deadline passed while it ran: then report a timeout.
    public static func run<Value: Sendable>(
        until deadline: ContinuousClock.Instant?,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async -> (result: Result<Value, any Error>, timedOut: Bool) {
        let timer = deadline.map { DeadlineTimer(deadline: $0) }
        defer { timer?.cancel() }
        return await run(under: timer, operation)
    }

    /// Runs `operation` until `deadline` (as ``run(until:_:)`` does) and returns its value:
    /// how a step waits within the call's deadline. At the deadline it throws
    /// ``TransportError`` of kind ``TransportError/Kind/timedOut``, which the call reports
    /// as its timeout, with the phase it reached; the operation's own error (a
    /// `CancellationError` when the calling task was cancelled) is thrown as it is.
    public static func within<Value: Sendable>(
        _ deadline: ContinuousClock.Instant?,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let outcome = await run(until: deadline, operation)
        if outcome.timedOut { throw TransportError(.timedOut) }
        return try outcome.result.get()
    }

    /// Runs `operation` under `timer`, which stays armed afterwards; without a timer,
    /// runs it directly.
    static func run<Value: Sendable>(
        under timer: DeadlineTimer?,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async -> (result: Result<Value, any Error>, timedOut: Bool) {
        if let timer { return await timer.run(operation) }
        do {
            return (.success(try await operation()), false)
        } catch {
            return (.failure(error), false)
        }
    }

    /// Waits `duration`, or until the calling task is cancelled, on a timer released the
    /// moment the wait ends: unlike a cancelled `Task.sleep`, a cancelled wait leaves
    /// nothing registered (a retry's backoff, say).
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    public static func sleep(for duration: Duration) async throws {
        let (_, timedOut) = await run(until: .now + duration) { await waitUntilCancelled() }
        if !timedOut { throw CancellationError() }
    }

    /// Returns once the calling task is cancelled.
    private static func waitUntilCancelled() async {
        let waiter = Locked<(cancelled: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = waiter.withLock { state in
                    if state.cancelled { return true }
                    state.continuation = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let continuation = waiter.withLock { state in
                state.cancelled = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume()
        }
    }
}
