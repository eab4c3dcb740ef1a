/// The slots of a ``ConcurrencyLimitMiddleware``: how many calls are in flight per host and
/// in all, and the calls waiting for a slot, in priority then arrival order.
///
/// A slot freed goes at once to the first waiter whose host has room, so a waiter for a
/// full host never holds up one for another host. Every change happens under one lock;
/// continuations are resumed after it is released.
final class ConcurrencyLimiter: Sendable {
    /// A call waiting for a slot.
    private struct Waiter {
        let id: Int
        let host: String
        let priority: Int
        var continuation: CheckedContinuation<Void, any Error>?
    }

    private struct State {
        var inFlight: [String: Int] = [:]
        var total = 0
        var queue: [Waiter] = []
        /// Waiters cancelled before they were queued.
        var cancelledEarly: Set<Int> = []
        var nextID = 0

        func hasRoom(for host: String, perHost: Int, total limit: Int) -> Bool {
            total < limit && inFlight[host, default: 0] < perHost
        }

        mutating func take(_ host: String) {
            inFlight[host, default: 0] += 1
            total += 1
        }
    }

    private let state = Locked(State())
    let perHost: Int
    let total: Int
    let queueLimit: Int

    init(perHost: Int, total: Int, queueLimit: Int) {
        self.perHost = max(1, perHost)
        self.total = max(1, total)
        self.queueLimit = max(0, queueLimit)
    }

    /// The calls in flight and waiting, for tests and diagnostics.
    var counts: (inFlight: [String: Int], queued: Int) {
        state.withLock { ($0.inFlight.filter { $0.value > 0 }, $0.queue.count) }
    }

    /// Takes a slot for `host` when it has room, without waiting: the common case, with no
    /// task or timer. (A freed slot goes to a fitting waiter at once, so room never exists
    /// while a waiter for it queues: taking it here jumps no one.)
    /// - Returns: whether a slot was taken.
    func tryAcquire(host: String) -> Bool {
        state.withLock { state in
            guard state.hasRoom(for: host, perHost: perHost, total: total) else { return false }
            state.take(host)
            return true
        }
    }

    /// Waits for a slot for `host` and takes it.
    /// - Throws: ``ConcurrencyLimitError/queueFull(limit:)`` at once when the queue is full;
    ///   `CancellationError` as soon as the calling task is cancelled while waiting (the
    ///   waiter leaves the queue then).
    func acquire(host: String, priority: Int) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelledEarly.remove(id) != nil { return .failure(CancellationError()) }
                    if state.hasRoom(for: host, perHost: perHost, total: total) {
                        state.take(host)
                        return .success(())
                    }
                    guard state.queue.count < queueLimit else {
                        return .failure(ConcurrencyLimitError.queueFull(limit: queueLimit))
                    }
                    let index = state.queue.firstIndex { $0.priority < priority } ?? state.queue.endIndex
                    state.queue.insert(
                        Waiter(id: id, host: host, priority: priority, continuation: continuation), at: index)
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.queue.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return state.queue.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
        // A waiter granted a slot and cancelled in the same moment may leave its id behind.
        state.withLock { _ = $0.cancelledEarly.remove(id) }
    }

    /// Frees a slot of `host` and hands the freed room to the waiters that fit.
    func release(host: String) {
        let granted = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.inFlight[host, default: 1] -= 1
            if state.inFlight[host] == 0 { state.inFlight[host] = nil }
            state.total -= 1
            var granted: [CheckedContinuation<Void, any Error>] = []
            var index = state.queue.startIndex
            while index < state.queue.endIndex, state.total < total {
                let waiter = state.queue[index]
                guard state.hasRoom(for: waiter.host, perHost: perHost, total: total) else {
                    index += 1
                    continue
                }
                state.take(waiter.host)
                state.queue.remove(at: index)
                if let continuation = waiter.continuation { granted.append(continuation) }
            }
            return granted
        }
        for continuation in granted { continuation.resume() }
    }
}
