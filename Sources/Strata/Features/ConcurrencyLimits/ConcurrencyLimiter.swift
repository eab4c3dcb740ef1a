/// The slots of a ``ConcurrencyLimitMiddleware``: how many calls are in flight per host and
/// in all, and the calls waiting for a slot (a ``WaitingLine``, in priority then arrival
/// order).
///
/// A slot freed goes at once to the first waiter whose host has room, so a waiter for a
/// full host never holds up one for another host. Every change happens under one lock;
/// waiters are resumed after it is released.
final class ConcurrencyLimiter: Sendable {
    /// The slots in use.
    private struct Slots {
        var inFlight: [String: Int] = [:]
        var total = 0

        func hasRoom(for host: String, perHost: Int, total limit: Int) -> Bool {
            total < limit && inFlight[host, default: 0] < perHost
        }

        /// Takes a slot of `host` when it has room.
        mutating func take(_ host: String, perHost: Int, total limit: Int) -> Void? {
            guard hasRoom(for: host, perHost: perHost, total: limit) else { return nil }
            inFlight[host, default: 0] += 1
            total += 1
            return ()
        }

        mutating func release(_ host: String) {
            inFlight[host, default: 1] -= 1
            if inFlight[host] == 0 { inFlight[host] = nil }
            total -= 1
        }
    }

    private struct State {
        var slots = Slots()
        var line: WaitingLine<String, Void>
    }

    private let state: Locked<State>
    let perHost: Int
    let total: Int
    var queueLimit: Int { state.withLock { $0.line.limit } }

    init(perHost: Int, total: Int, queueLimit: Int) {
        self.perHost = max(1, perHost)
        self.total = max(1, total)
        state = Locked(State(line: WaitingLine(limit: queueLimit)))
    }

    /// The calls in flight and waiting, for tests and diagnostics.
    var counts: (inFlight: [String: Int], queued: Int) {
        state.withLock { ($0.slots.inFlight, $0.line.count) }
    }

    /// Takes a slot for `host`, waiting for one until `deadline`. A host with room takes
    /// one at once, with no continuation or timer. (A freed slot goes to a fitting waiter at
    /// once, so room never exists while a waiter for it queues: taking it jumps no one.)
    /// - Throws: ``ConcurrencyLimitError/queueFull(limit:)`` at once when the queue is full;
    ///   what ``Locked/wait(in:for:priority:until:take:)`` throws at the deadline or on
    ///   cancellation.
    func acquire(host: String, priority: Int, until deadline: ContinuousClock.Instant?) async throws {
        let (perHost, total) = (self.perHost, self.total)
        do {
            try await state.wait(in: \.line, for: host, priority: priority, until: deadline) {
                $0.slots.take(host, perHost: perHost, total: total)
            }
        } catch WaitingLineRefusal.full(let limit) {
            throw ConcurrencyLimitError.queueFull(limit: limit)
        }
    }

    /// Frees a slot of `host` and hands the freed room to the waiters that fit.
    func release(host: String) {
        let (perHost, total) = (self.perHost, self.total)
        let granted = state.withLock { state in
            state.slots.release(host)
            return state.line.grant { state.slots.take($0, perHost: perHost, total: total) }
        }
        for waiter in granted { waiter.resume() }
    }
}
