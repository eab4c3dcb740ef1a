import Foundation

/// Where an ``Outbox`` keeps its items and dead letters: in memory
/// (``MemoryOutboxStore``, for tests and prototypes) or in a file that survives the
/// process (`SQLiteOutboxStore` in StrataSQLiteCache).
///
/// Each method is one change, all or nothing: a store on disk writes it in one
/// transaction before it returns, so that a process killed at any point finds every item
/// either still pending or answered.
public protocol OutboxStore: Sendable {
    /// Adds `item` after every item already held, giving it its ``OutboxItem/sequence``.
    /// - Returns: the item as stored.
    /// - Throws: ``OutboxError/full(limits:)`` when the item would take the store past its
    ///   limits; nothing is dropped to make room.
    func append(_ item: OutboxItem) throws -> OutboxItem

    /// The items waiting for delivery, in the order they were added.
    func pendingItems() throws -> [OutboxItem]

    /// Counts one more failed attempt of the item `id`.
    func recordFailedAttempt(of id: UUID) throws

    /// Removes the item `id`, which the server answered.
    func remove(_ id: UUID) throws

    /// Moves the item of `letter` from the pending items to the dead letters.
    func deadLetter(_ letter: DeadLetter) throws

    /// The dead letters, in the order of their items.
    func deadLetters() throws -> [DeadLetter]

    /// Moves the dead letter `id` back to the pending items, in its original place.
    func requeue(_ id: UUID) throws

    /// Deletes the dead letter `id`.
    func discard(_ id: UUID) throws
}

/// How much an outbox holds at most: items and bytes, the pending items and the dead
/// letters together.
public struct OutboxLimits: Sendable, Hashable, Codable {
    /// The most items; 10,000 by default.
    public var maxItems: Int
    /// The most bytes (bodies, targets and header fields); 64 MiB by default.
    public var maxBytes: Int

    /// Creates limits.
    public init(maxItems: Int = 10_000, maxBytes: Int = 64 << 20) {
        self.maxItems = maxItems
        self.maxBytes = maxBytes
    }

    /// Whether `item` fits beside `count` items of `bytes` bytes: what a store checks
    /// before it adds an item.
    public func admits(_ item: OutboxItem, count: Int, bytes: Int) -> Bool {
        count < maxItems && bytes + item.size <= maxBytes
    }
}

/// Why an outbox refused a request.
public enum OutboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The outbox holds as much as its limits allow; the request was not added.
    case full(limits: OutboxLimits)
    /// The request's body is a stream that cannot be read twice; an outbox stores bytes
    /// or a file reference.
    case bodyNotStorable
    /// No pending item or dead letter has this identity.
    case notFound(UUID)

    /// A sentence for logs.
    public var description: String {
        switch self {
        case .full(let limits):
            "the outbox is full (at most \(limits.maxItems) items and \(limits.maxBytes) bytes)"
        case .bodyNotStorable: "the request's body is a stream, which an outbox cannot store (bytes or a file can be)"
        case .notFound(let id): "no outbox item \(id)"
        }
    }
}
