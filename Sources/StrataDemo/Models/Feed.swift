/// A feed of the demo API: `{"id", "revision", "posts"}`, the resource the caching
/// steps store. Each new post is a new revision, and a new `ETag`.
public struct Feed: Decodable, Sendable, Equatable {
    /// Which feed.
    public let id: Int
    /// How many times it has changed, from 1.
    public let revision: Int
    /// The posts, oldest first.
    public let posts: [String]
}

/// What the server counted of one feed's `GET`s: `{"requests", "notModified", "failed"}`.
public struct FeedStats: Decodable, Sendable, Equatable {
    /// Every `GET /feeds/:id` the server saw.
    public let requests: Int
    /// Those it answered `304 Not Modified`.
    public let notModified: Int
    /// Those it answered `503`, during an outage.
    public let failed: Int

    /// Creates counts, to compare with the server's.
    public init(requests: Int, notModified: Int, failed: Int) {
        self.requests = requests
        self.notModified = notModified
        self.failed = failed
    }
}
