/// A ``CacheStore`` in memory, bounded by bytes, evicting the least recently used key
/// first.
///
/// Each key's cost is the sum of its variants' ``CachedResponse/cost`` (body, fields,
/// secondary key). A store that would go over ``capacity`` drops least recently used
/// keys (read or written) until it fits; a variant larger than the whole capacity is
/// not stored, and the key's older copies are dropped with it. Reads and writes are O(1)
/// besides copying the variants.
public final class MemoryCacheStore: CacheStore {
    /// The most bytes the store holds.
    public let capacity: Int
    private let state: Locked<State>

    /// Creates an empty store holding at most `capacity` bytes (default 16 MiB).
    public init(capacity: Int = 16 * 1024 * 1024) {
        self.capacity = max(0, capacity)
        self.state = Locked(State())
    }

    /// The bytes held now.
    public var size: Int { state.withLock { $0.size } }

    /// The keys held now, least recently used first.
    public var keys: [CacheKey] { state.withLock { $0.order.elements } }

    /// The variants under `key`; a hit makes the key the most recently used.
    public func variants(for key: CacheKey) async throws -> [CachedResponse] {
        state.withLock { state in
            guard let variants = state.entries[key] else { return [] }
            state.order.touch(key)
            return variants
        }
    }

    /// Stores `response`, then evicts least recently used keys until the store fits.
    public func store(_ response: CachedResponse, for key: CacheKey) async throws {
        let cost = response.cost
        guard cost <= capacity else {
            try await remove(key)
            return
        }
        state.withLock { state in
            var variants = state.entries[key] ?? []
            state.size -= variants.reduce(0) { $0 + $1.cost }
            variants.removeAll { $0.variedFields == response.variedFields }
            variants.insert(response, at: 0)
            state.entries[key] = variants
            state.size += variants.reduce(0) { $0 + $1.cost }
            state.order.touch(key)
            while state.size > capacity, let oldest = state.order.first {
                state.remove(oldest)
            }
        }
    }

    /// Removes `key`'s variants.
    public func remove(_ key: CacheKey) async throws {
        state.withLock { $0.remove(key) }
    }

    /// Removes everything.
    public func removeAll() async throws {
        state.withLock { $0 = State() }
    }

    private struct State {
        var entries: [CacheKey: [CachedResponse]] = [:]
        var order = LRUOrder<CacheKey>()
        var size = 0

        mutating func remove(_ key: CacheKey) {
            guard let variants = entries.removeValue(forKey: key) else { return }
            size -= variants.reduce(0) { $0 + $1.cost }
            order.remove(key)
        }
    }
}

/// Keys in order of use, least recent first: a doubly linked list threaded through two
/// dictionaries, so touching, removing and finding the oldest are O(1).
struct LRUOrder<Key: Hashable> {
    private var previous: [Key: Key] = [:]
    private var next: [Key: Key] = [:]
    private var members: Set<Key> = []
    private(set) var first: Key?
    private var last: Key?

    /// Makes `key` the most recently used, adding it if needed.
    mutating func touch(_ key: Key) {
        if last == key { return }
        remove(key)
        members.insert(key)
        if let last {
            next[last] = key
            previous[key] = last
        } else {
            first = key
        }
        last = key
    }

    /// Removes `key`, if present.
    mutating func remove(_ key: Key) {
        guard members.remove(key) != nil else { return }
        let before = previous.removeValue(forKey: key)
        let after = next.removeValue(forKey: key)
        if let before { next[before] = after } else { first = after }
        if let after { previous[after] = before } else { last = before }
    }

    /// The keys, least recently used first.
    var elements: [Key] {
        var result: [Key] = []
        var cursor = first
        while let key = cursor {
            result.append(key)
            cursor = next[key]
        }
        return result
    }
}
