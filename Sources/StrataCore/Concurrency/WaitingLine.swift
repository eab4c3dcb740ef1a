/// Calls waiting their turn for something a step hands out — a slot, a token, a shared
/// response — in priority then arrival order: the one implementation of waiting that the
/// per-host concurrency limit, the rate limit and request coalescing share.
///
/// The line lives inside its owner's ``Locked`` state, so that the owner's bookkeeping (the
/// slots in use, the tokens left, the requests in flight) and the line change together
/// under one lock; ``Locked/wait(in:for:priority:until:take:)`` does the waiting.
/// A wait is bounded three ways: the line holds at most ``limit`` waiters (one more is
/// refused at once), a waiter leaves at its deadline (a timer of the process-wide
/// scheduler, no task), and one whose task is cancelled leaves at once.
package struct WaitingLine<Key: Hashable & Sendable, Grant: Sendable>: Sendable {
    /// A call in the line.
    package struct Waiter: Sendable {
        let id: Int
        /// What it waits for: a host, a rate limit's partition, a request's identity.
        package let key: Key
        let priority: Int
        let continuation: CheckedContinuation<Grant, any Error>
        /// Its deadline's timer, stopped when it is granted.
        let timer: DeadlineTimer?
    }

    /// A waiter granted what it waited for, resumed once the lock is released.
    package struct Granted: Sendable {
        fileprivate let waiter: Waiter
        fileprivate let grant: Grant

        /// Stops the waiter's timer and hands it its grant; call outside the lock.
        package func resume() {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: grant)
        }
    }

    /// The waiters, higher priority first, then in arrival order.
    package private(set) var waiters: [Waiter] = []
    /// Waiters that left (their deadline, their cancellation) before they were queued,
    /// with the error each leaves with.
    private var leftEarly: [Int: any Error] = [:]
    private var nextID = 0
    /// The waiters the line holds at most.
    package let limit: Int

    /// An empty line holding at most `limit` waiters.
    package init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// How many calls wait.
    package var count: Int { waiters.count }

    /// Whether a call waits for `key`.
    package func contains(_ key: Key) -> Bool {
        waiters.contains { $0.key == key }
    }

    /// Walks the line in order and grants each waiter what `decide` hands out for its key
    /// (`nil`: that waiter waits on). `decide` runs under the owner's lock and may change
    /// the owner's state (take a slot, spend a token). Resume the result outside the lock.
    package mutating func grant(_ decide: (Key) -> Grant?) -> [Granted] {
        var granted: [Granted] = []
        var index = waiters.startIndex
        while index < waiters.endIndex {
            guard let grant = decide(waiters[index].key) else {
                index += 1
                continue
            }
            granted.append(Granted(waiter: waiters.remove(at: index), grant: grant))
        }
        return granted
    }

    /// Every waiter's key, in order (for diagnostics).
    package var keys: [Key] { waiters.map(\.key) }

    fileprivate mutating func ticket() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// Queues a waiter in its place; returns the error to end its wait with instead when
    /// the line is full or the waiter already left.
    fileprivate mutating func enqueue(_ waiter: Waiter) -> (any Error)? {
        guard waiters.count < limit else { return WaitingLineRefusal.full(limit: limit) }
        let index = waiters.firstIndex { $0.priority < waiter.priority } ?? waiters.endIndex
        waiters.insert(waiter, at: index)
        return nil
    }

    /// Removes the waiter `id`, or notes that it left, with `error`, before it was queued.
    fileprivate mutating func remove(_ id: Int, leavingWith error: any Error) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else {
            leftEarly[id] = error
            return nil
        }
        return waiters.remove(at: index)
    }

    /// The error the waiter `id` left with before it was queued, if it did; forgotten then.
    fileprivate mutating func left(_ id: Int) -> (any Error)? {
        leftEarly.removeValue(forKey: id)
    }
}

/// Why a wait in a ``WaitingLine`` ended without its grant.
package enum WaitingLineRefusal: Error, Sendable, Equatable {
    /// The line already held `limit` waiters.
    case full(limit: Int)
}

extension Locked {
    /// Takes what `take` hands out at once, or else waits in the line at `line` for a grant
    /// to `key` (see ``WaitingLine/grant(_:)``).
    ///
    /// - Parameters:
    ///   - take: asked under the lock before the call queues: a grant when there is one
    ///     now (the common case: no continuation, no timer). A line with waiters for the
    ///     same thing should answer `nil`, so that no one is jumped.
    /// - Throws: ``WaitingLineRefusal/full(limit:)`` at once when the line is full;
    ///   ``TransportError`` of kind ``TransportError/Kind/timedOut`` at `deadline` (the
    ///   call's timeout, as its client reports it); `CancellationError` as soon as the
    ///   calling task is cancelled.
    package func wait<Key, Grant>(
        in line: WritableKeyPath<Value, WaitingLine<Key, Grant>> & Sendable,
        for key: Key,
        priority: Int = 0,
        until deadline: ContinuousClock.Instant?,
        take: (inout Value) -> Grant?
    ) async throws -> Grant {
        let ready: Result<Grant, any Error>? = withLock { state in
            if let grant = take(&state) { return .success(grant) }
            guard state[keyPath: line].count < state[keyPath: line].limit else {
                return .failure(WaitingLineRefusal.full(limit: state[keyPath: line].limit))
            }
            return nil
        }
        if let ready { return try ready.get() }
        if Deadline.hasPassed(deadline) { throw TransportError(.timedOut) }
        let id = withLock { $0[keyPath: line].ticket() }
        let leave: @Sendable (any Error) -> Void = { [self] error in
            let waiter = withLock { $0[keyPath: line].remove(id, leavingWith: error) }
            waiter?.timer?.cancel()
            waiter?.continuation.resume(throwing: error)
        }
        // A waiter granted and cancelled in the same moment may leave its note behind.
        defer { withLock { _ = $0[keyPath: line].left(id) } }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Grant, any Error>) in
                let timer = deadline.map { DeadlineTimer(deadline: $0) { leave(TransportError(.timedOut)) } }
                let ready = withLock { state -> Result<Grant, any Error>? in
                    if let error = state[keyPath: line].left(id) { return .failure(error) }
                    // Asked again: what was handed out may have come free since the first ask.
                    if let grant = take(&state) { return .success(grant) }
                    let waiter = WaitingLine<Key, Grant>.Waiter(
                        id: id, key: key, priority: priority, continuation: continuation, timer: timer)
                    return state[keyPath: line].enqueue(waiter).map { .failure($0) }
                }
                if let ready {
                    timer?.cancel()
                    continuation.resume(with: ready)
                }
            }
        } onCancel: {
            leave(CancellationError())
        }
    }
}
