/// Where a call's response came from and how old it was: on ``EndpointResponse/cache``
/// and ``StrataError/cache`` when the client has a ``CacheMiddleware``.
///
/// ```swift
/// let response = try await networker.response(for: endpoint.cache(.remoteElseCache))
/// if let cache = response.cache, cache.source == .cache { showBanner("offline, \(cache.age) old") }
/// ```
public struct CacheOutcome: Sendable, Hashable, CustomStringConvertible {
    /// Where a response came from.
    ///
    /// A struct with static members rather than an enum, so that new sources can be
    /// added without breaking callers.
    public struct Source: Hashable, Sendable, CustomStringConvertible {
        /// The source's name, for example `revalidated`.
        public let description: String

        private init(_ description: String) {
            self.description = description
        }

        /// The network, with nothing stored used.
        public static let network = Source("network")
        /// The cache, without a request.
        public static let cache = Source("cache")
        /// The cache, after the server confirmed it with `304 Not Modified`: the caller
        /// sees the stored status and body with the updated fields.
        public static let revalidated = Source("revalidated")
    }

    /// Where the response came from.
    public var source: Source
    /// The response's age (RFC 9111 §4.2.3) when it was handed over, in whole seconds.
    public var age: Duration
    /// Whether it was past its freshness lifetime (served under `max-stale`,
    /// `stale-while-revalidate`, `stale-if-error`, or a strategy that allows it).
    public var isStale: Bool

    /// Creates an outcome.
    public init(source: Source, age: Duration, isStale: Bool) {
        self.source = source
        self.age = age
        self.isStale = isStale
    }

    /// `cache, age 12 seconds, stale`
    public var description: String {
        "\(source), age \(age)" + (isStale ? ", stale" : "")
    }
}
