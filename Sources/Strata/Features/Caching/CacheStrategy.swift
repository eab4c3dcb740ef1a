/// How one endpoint uses a client's ``CacheMiddleware``; set it with ``Endpoint/cache(_:)``.
///
/// ```swift
/// let feed = try await networker.send(feedEndpoint.cache(.remoteElseCache))  // offline fallback
/// let flags = try await networker.send(flagsEndpoint.cache(.cacheElseRemote)) // fetch once
/// ```
///
/// For "show the cached value, then the fresh one", see
/// ``Networker/cacheThenRemote(_:)``.
public enum CacheStrategy: Sendable, Hashable {
    /// Standard HTTP caching (RFC 9111), the default: a fresh stored response is served,
    /// a stale one is revalidated (or served within `stale-while-revalidate` /
    /// `stale-if-error`).
    case remoteOnly
    /// Serves any stored response, fresh or stale, without a request; fetches (and
    /// stores) only on a miss.
    case cacheElseRemote
    /// Asks the network first (conditionally, when a stored response has validators);
    /// on a transport failure or a 5xx, serves the stored response, whatever its age
    /// (``CacheOutcome/age`` says how old).
    case remoteElseCache
    /// Never touches the network: serves any stored response, or fails with
    /// ``StrataError/Kind/cacheMiss``.
    case cacheOnly
}
