/// Where a ``CacheMiddleware`` keeps responses: a map from ``CacheKey`` to the stored
/// variants of that key (one per secondary key, RFC 9111 §4.1).
///
/// Strata ships ``MemoryCacheStore``; a persistent store implements the same four
/// calls. A store decides its own bound and eviction; it must be safe to call from
/// many tasks at once. Errors a store throws are not the caller's problem: the cache
/// treats a failed read as a miss and a failed write as not stored, and logs both.
public protocol CacheStore: Sendable {
    /// The variants stored under `key`, most recently stored first; empty for a miss.
    func variants(for key: CacheKey) async throws -> [CachedResponse]

    /// Stores `response` under `key`, replacing the variant with the same
    /// ``CachedResponse/variedFields``.
    func store(_ response: CachedResponse, for key: CacheKey) async throws

    /// Removes every variant stored under `key`.
    func remove(_ key: CacheKey) async throws

    /// Removes everything.
    func removeAll() async throws
}
