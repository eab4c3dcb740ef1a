/// The feed service: a cacheable feed, and the stage directions the caching steps use
/// to make it change or fail.
public enum FeedRoute: DemoPath {
    /// `POST /feeds`: a new feed.
    case feeds
    /// `GET /feeds/:id`: the feed, cacheable (`max-age=0` and an `ETag`).
    case feed(Int)
    /// `POST /feeds/:id/posts`: a new post, so a new revision.
    case posts(feedID: Int)
    /// `PUT` / `DELETE /feeds/:id/outage`: the feed answers 503 until the outage ends.
    case outage(feedID: Int)
    /// `GET /feeds/:id/stats`: the requests the server saw for the feed.
    case stats(feedID: Int)

    /// The path of the route.
    public var path: String {
        switch self {
        case .feeds: "/feeds"
        case .feed(let id): "/feeds/\(id)"
        case .posts(let id): "/feeds/\(id)/posts"
        case .outage(let id): "/feeds/\(id)/outage"
        case .stats(let id): "/feeds/\(id)/stats"
        }
    }
}
