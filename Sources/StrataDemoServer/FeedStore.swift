import Foundation

/// The feeds of one demo server: their posts, outages and what each `GET` of a feed
/// got. Every feed is its own story, so tours against the same server never see each
/// other's requests.
actor FeedStore {
    /// What `GET /feeds/:id` answers.
    enum Answer: Equatable {
        /// No feed with that id.
        case unknown
        /// The feed has an outage: a 503.
        case unavailable
        /// The client's copy is current: a 304 with the `ETag`.
        case notModified(etag: String)
        /// The feed and its `ETag`.
        case feed(FeedPayload, etag: String)
    }

    /// What `POST /feeds/:id/posts` answers.
    enum Publication: Equatable {
        /// No feed with that id.
        case unknown
        /// The feed has an outage: a 503.
        case unavailable
        /// The feed after the post (or, for a key seen before, after that key's post).
        case published(FeedPayload)
    }

    private struct Feed {
        var posts: [String]
        var revision = 1
        var hasOutage = false
        /// The feed after each `Idempotency-Key`'s post: a repeated key publishes nothing.
        var published: [String: FeedPayload] = [:]
        var stats = FeedStatsPayload(requests: 0, notModified: 0, failed: 0)

        func payload(id: Int) -> FeedPayload {
            FeedPayload(id: id, revision: revision, posts: posts)
        }

        func etag(id: Int) -> String { "\"feed-\(id)-r\(revision)\"" }
    }

    private var feeds: [Int: Feed] = [:]
    private var nextID = 1

    /// Creates a feed with a first post.
    func create() -> FeedPayload {
        let id = nextID
        nextID += 1
        let feed = Feed(posts: ["Welcome to feed \(id)"])
        feeds[id] = feed
        return feed.payload(id: id)
    }

    /// Counts a `GET` of feed `id` and says how to answer it.
    /// - Parameter ifNoneMatch: the request's `If-None-Match`, a list of entity tags or `*`.
    func read(id: Int, ifNoneMatch: String?) -> Answer {
        guard var feed = feeds[id] else { return .unknown }
        defer { feeds[id] = feed }
        feed.stats.requests += 1
        if feed.hasOutage {
            feed.stats.failed += 1
            return .unavailable
        }
        let etag = feed.etag(id: id)
        if let ifNoneMatch, Self.tags(in: ifNoneMatch).contains(where: { $0 == "*" || Self.weakMatch($0, etag) }) {
            feed.stats.notModified += 1
            return .notModified(etag: etag)
        }
        return .feed(feed.payload(id: id), etag: etag)
    }

    /// Adds a post to feed `id`, a new revision, unless the feed has an outage or `key`
    /// was published already (then the feed as that post left it).
    func publish(id: Int, key: String?) -> Publication {
        guard var feed = feeds[id] else { return .unknown }
        guard !feed.hasOutage else { return .unavailable }
        if let key, let earlier = feed.published[key] { return .published(earlier) }
        feed.revision += 1
        feed.posts.append("Post \(feed.revision) of feed \(id)")
        let payload = feed.payload(id: id)
        if let key { feed.published[key] = payload }
        feeds[id] = feed
        return .published(payload)
    }

    /// Starts or ends an outage of feed `id`; `false` when there is no such feed.
    func setOutage(_ hasOutage: Bool, id: Int) -> Bool {
        guard feeds[id] != nil else { return false }
        feeds[id]?.hasOutage = hasOutage
        return true
    }

    /// What the `GET`s of feed `id` got so far; `nil` when there is no such feed.
    func stats(id: Int) -> FeedStatsPayload? {
        feeds[id]?.stats
    }

    /// The entity tags of an `If-None-Match` value (RFC 9110 §13.1.2), as written.
    private static func tags(in value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The weak comparison `If-None-Match` uses: equal once a `W/` prefix is dropped.
    private static func weakMatch(_ tag: String, _ other: String) -> Bool {
        func opaque(_ tag: String) -> Substring { tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag) }
        return opaque(tag) == opaque(other)
    }
}
