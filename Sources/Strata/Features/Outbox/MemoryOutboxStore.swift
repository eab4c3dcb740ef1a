import Foundation

/// An ``OutboxStore`` in memory: for tests and prototypes, gone with the process.
public final class MemoryOutboxStore: OutboxStore {
    private struct State {
        var pending: [OutboxItem] = []
        var dead: [DeadLetter] = []
        var nextSequence: Int64 = 1
    }

    private let state = Locked(State())
    /// How much the store holds at most.
    public let limits: OutboxLimits

    /// Creates an empty store holding at most `limits`.
    public init(limits: OutboxLimits = OutboxLimits()) {
        self.limits = limits
    }

    /// Adds `item` after the others; see ``OutboxStore/append(_:)``.
    public func append(_ item: OutboxItem) throws -> OutboxItem {
        try state.withLock { state in
            let bytes = state.pending.reduce(0) { $0 + $1.size } + state.dead.reduce(0) { $0 + $1.item.size }
            guard limits.admits(item, count: state.pending.count + state.dead.count, bytes: bytes) else {
                throw OutboxError.full(limits: limits)
            }
            var item = item
            item.sequence = state.nextSequence
            state.nextSequence += 1
            state.pending.append(item)
            return item
        }
    }

    /// The pending items, in order.
    public func pendingItems() -> [OutboxItem] { state.withLock { $0.pending } }

    /// Counts a failed attempt of `id`.
    public func recordFailedAttempt(of id: UUID) throws {
        try state.withLock { state in
            guard let index = state.pending.firstIndex(where: { $0.id == id }) else { throw OutboxError.notFound(id) }
            state.pending[index].failedAttempts += 1
        }
    }

    /// Removes the pending item `id`.
    public func remove(_ id: UUID) throws {
        try state.withLock { state in
            guard let index = state.pending.firstIndex(where: { $0.id == id }) else { throw OutboxError.notFound(id) }
            state.pending.remove(at: index)
        }
    }

    /// Moves the item of `letter` to the dead letters.
    public func deadLetter(_ letter: DeadLetter) throws {
        try state.withLock { state in
            guard let index = state.pending.firstIndex(where: { $0.id == letter.id }) else {
                throw OutboxError.notFound(letter.id)
            }
            state.pending.remove(at: index)
            state.dead.append(letter)
            state.dead.sort { $0.item.sequence < $1.item.sequence }
        }
    }

    /// The dead letters, in order.
    public func deadLetters() -> [DeadLetter] { state.withLock { $0.dead } }

    /// Moves the dead letter `id` back among the pending items, in its place.
    public func requeue(_ id: UUID) throws {
        try state.withLock { state in
            guard let index = state.dead.firstIndex(where: { $0.id == id }) else { throw OutboxError.notFound(id) }
            let item = state.dead.remove(at: index).item
            state.pending.insert(
                item, at: state.pending.firstIndex { $0.sequence > item.sequence } ?? state.pending.endIndex)
        }
    }

    /// Deletes the dead letter `id`.
    public func discard(_ id: UUID) throws {
        try state.withLock { state in
            guard let index = state.dead.firstIndex(where: { $0.id == id }) else { throw OutboxError.notFound(id) }
            state.dead.remove(at: index)
        }
    }
}
