import Strata

/// The offline writes step: posts kept by an ``Outbox`` while the server has an outage,
/// delivered once each when it ends.
enum OfflineWriteSteps {
    static let all: [TourStep] = [
        TourStep(id: .offlineWrites, section: .offlineWrites, feature: "Outbox") { session in
            let feedID = try await session.backstage.send(session.api.createFeed()).id
            try await session.backstage.send(session.api.setOutage(true, feedID: feedID))
            // What an app learns from the system's network path; here, the server's outage.
            let isOnline = Locked(false)
            let outbox = Outbox(
                networker: session.networker,
                policy: OutboxPolicy(
                    initialBackoff: .milliseconds(20), maxBackoff: .milliseconds(100),
                    isReachable: { isOnline.withLock { $0 } }),
                startsPaused: true)
            let group = "feed-\(feedID)"
            for _ in 1...3 { try outbox.enqueue(session.api.publishPost(feedID: feedID), group: group) }
            // The first post meets the outage (503, after the client's own retries) and waits
            // until the network is back; the others wait behind it.
            await outbox.drain()
            let kept = try outbox.pending.count
            try check(kept == 3, "during the outage the outbox kept \(kept) posts, not 3")
            try await session.backstage.send(session.api.setOutage(false, feedID: feedID))
            isOnline.withLock { $0 = true }
            await outbox.drain()
            let left = try outbox.pending.count
            await outbox.close()
            try check(left == 0, "after the outage \(left) posts were left, not 0")
            let feed = try await session.backstage.send(session.api.feed(id: feedID))
            try check(feed.posts.count == 4, "the feed has \(feed.posts.count) posts, not its first and the 3 sent")
            return StepOutcome(
                summary: "outage, 503: 3 posts kept; outage over: each delivered once, in order → "
                    + "Feed(revision: \(feed.revision), posts: \(feed.posts.count))",
                value: feed)
        }
    ]
}
