import Strata

/// What a caching step of the tour loaded, in order, and what the server counted.
public struct FeedLoads: Sendable, Equatable {
    /// One loaded feed and where it came from.
    public struct Load: Sendable, Equatable {
        /// The feed.
        public let feed: Feed
        /// Where it came from (network, cache, revalidated) and how old it was.
        public let cache: CacheOutcome?
    }

    /// Every feed the step's loads yielded, in order.
    public let loads: [Load]
    /// The `GET`s of the feed the server saw.
    public let stats: FeedStats

    /// The sources of ``loads``, in order.
    public var sources: [CacheOutcome.Source?] { loads.map { $0.cache?.source } }
}
