import Strata

/// The caching steps, on a client with a ``CacheMiddleware`` over a ``MemoryCacheStore``:
/// the cached feed shown first and the fresh one after it, and the stored feed served
/// while the server fails.
///
/// Each step makes a feed of its own (a stage direction, sent by the session's
/// `backstage` client and not recorded), so the server's counts are the step's alone,
/// however many tours ran against the same server before. Feeds say `max-age=0`: every
/// stored copy is stale at once, so the standard load always asks the server.
enum CachingSteps {
    static let all: [TourStep] = [
        TourStep(id: .cacheThenRemote, section: .caching, feature: "networker.cacheThenRemote(_:)") { session in
            let feedID = try await session.backstage.send(session.api.createFeed()).id
            let feed = session.api.feed(id: feedID)
            let first = try await loads(session.cachingNetworker.cacheThenRemote(feed))
            try check(
                first.map(\.cache?.source) == [.network],
                "the first load gave \(first.map(\.summary)), not the network's feed alone")
            let published = try await session.backstage.send(session.api.publishPost(feedID: feedID))
            let second = try await loads(session.cachingNetworker.cacheThenRemote(feed))
            try check(
                second.map(\.cache?.source) == [.cache, .network],
                "the second load gave \(second.map(\.summary)), not the stored feed and then the network's")
            try check(second.first?.feed == first.first?.feed, "the stored feed is not the one loaded first")
            try check(second.first?.cache?.isStale == true, "the stored feed (max-age=0) is not marked stale")
            try check(second.last?.feed == published, "the fresh feed is not the one with the new post")
            let stats = try await session.backstage.send(session.api.feedStats(feedID: feedID))
            try check(
                stats == FeedStats(requests: 2, notModified: 0, failed: 0),
                "the server saw \(stats), not 2 requests (the first load and the second one's revalidation)")
            let shown = second.map(\.summary).joined(separator: ", then ")
            return StepOutcome(
                summary: "1st: \(first.map(\.summary).joined()); a new post; 2nd: \(shown); server saw 2 GETs",
                value: FeedLoads(loads: first + second, stats: stats))
        },
        TourStep(id: .offlineFallback, section: .caching, feature: ".cache(.remoteElseCache)") { session in
            let feedID = try await session.backstage.send(session.api.createFeed()).id
            let feed = session.api.feed(id: feedID).cache(.remoteElseCache)
            let online = try await load(feed, session)
            try check(online.cache?.source == .network, "online, the feed came from \(online.summary), not the network")
            try await session.backstage.send(session.api.setOutage(true, feedID: feedID))
            let offline = try await load(feed, session)
            try check(
                offline.cache?.source == .cache,
                "during the outage the feed came from \(offline.summary), not the cache")
            try check(offline.feed == online.feed, "the stored feed is not the one loaded online")
            let stats = try await session.backstage.send(session.api.feedStats(feedID: feedID))
            try check(
                stats == FeedStats(requests: 2, notModified: 0, failed: 1),
                "the server saw \(stats), not 2 requests of which the second failed")
            try await session.backstage.send(session.api.setOutage(false, feedID: feedID))
            return StepOutcome(
                summary: "online: \(online.summary); outage, 503 → stored copy: \(offline.summary)",
                value: FeedLoads(loads: [online, offline], stats: stats))
        },
    ]

    /// Every feed `sequence` yields, with where it came from.
    private static func loads(_ sequence: CacheThenRemote<Feed>) async throws -> [FeedLoads.Load] {
        var loads: [FeedLoads.Load] = []
        for try await response in sequence {
            loads.append(FeedLoads.Load(feed: response.value, cache: response.cache))
        }
        return loads
    }

    /// Loads `feed` with the caching client.
    private static func load(_ feed: Endpoint<Feed>, _ session: TourSession) async throws -> FeedLoads.Load {
        let response = try await session.cachingNetworker.response(for: feed)
        return FeedLoads.Load(feed: response.value, cache: response.cache)
    }
}
