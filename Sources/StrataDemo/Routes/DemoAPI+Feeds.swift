import Strata

extension DemoAPI {
    /// `POST /feeds`: creates a feed with one post.
    public func createFeed() -> Endpoint<Feed> {
        Endpoint(RequestDescription(route: route(FeedRoute.feeds), method: .post), decoding: Feed.self)
    }

    /// `GET /feeds/:id`: the feed, which a ``CacheMiddleware`` may store (`max-age=0`,
    /// so every stored copy is stale, and an `ETag` to revalidate it with).
    public func feed(id: Int) -> Endpoint<Feed> {
        Endpoint(RequestDescription(route: route(FeedRoute.feed(id))), decoding: Feed.self)
    }

    /// `POST /feeds/:id/posts`: publishes a post, a new revision of the feed.
    public func publishPost(feedID: Int) -> Endpoint<Feed> {
        Endpoint(RequestDescription(route: route(FeedRoute.posts(feedID: feedID)), method: .post), decoding: Feed.self)
    }

    /// `PUT /feeds/:id/outage` to start an outage (every `GET` of the feed answers 503),
    /// `DELETE` to end it.
    public func setOutage(_ hasOutage: Bool, feedID: Int) -> Endpoint<Void> {
        Endpoint(RequestDescription(route: route(FeedRoute.outage(feedID: feedID)), method: hasOutage ? .put : .delete))
    }

    /// `GET /feeds/:id/stats`: the `GET`s of the feed the server saw.
    public func feedStats(feedID: Int) -> Endpoint<FeedStats> {
        Endpoint(RequestDescription(route: route(FeedRoute.stats(feedID: feedID))), decoding: FeedStats.self)
    }
}
