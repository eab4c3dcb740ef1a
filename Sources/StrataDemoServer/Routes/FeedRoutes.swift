import Hummingbird
import Strata

/// The feeds: a cacheable resource for the caching steps, with the stage directions the
/// tour needs to make it change or fail.
///
/// | route | what it does |
/// |---|---|
/// | `POST /feeds` | a new feed with one post → 201 `{"id","revision","posts"}` and its `Location` |
/// | `GET /feeds/:id` | the feed with `Cache-Control: max-age=0` and an `ETag` per revision; `304` for a matching `If-None-Match`; 503 while the feed has an outage |
/// | `POST /feeds/:id/posts` | publishes a post: a new revision, so a new `ETag`; once per `Idempotency-Key`; 503 while the feed has an outage |
/// | `PUT` / `DELETE /feeds/:id/outage` | starts or ends an outage → 204 |
/// | `GET /feeds/:id/stats` | `{"requests","notModified","failed"}`: the `GET /feeds/:id` the feed saw |
///
/// `max-age=0` makes every stored copy stale at once: a client revalidates it on each
/// standard load (so `cacheThenRemote` always asks the server), and may still serve it
/// when its strategy allows (`cacheOnly`, `remoteElseCache` during an outage).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum FeedRoutes {
    /// The `Cache-Control` of a feed.
    static let cacheControl = "max-age=0"

    static func register(on router: Router<BasicRequestContext>, feeds: FeedStore) {
        router.post("feeds") { _, _ in
            let feed = await feeds.create()
            return Responses.json(
                feed, status: .created, headers: [.location: "/feeds/\(feed.id)", .cacheControl: "no-store"])
        }
        router.get("feeds/:id") { request, context in
            await answer(context) { id in
                switch await feeds.read(id: id, ifNoneMatch: request.headers[.ifNoneMatch]) {
                case .unknown:
                    nil
                case .unavailable:
                    outage(id)
                case .notModified(let etag):
                    Response(status: .notModified, headers: [.eTag: etag, .cacheControl: cacheControl])
                case .feed(let feed, let etag):
                    Responses.json(feed, headers: [.eTag: etag, .cacheControl: cacheControl])
                }
            }
        }
        router.post("feeds/:id/posts") { request, context in
            await answer(context) { id in
                switch await feeds.publish(id: id, key: request.headers[RetryPolicy.idempotencyKey]) {
                case .unknown: nil
                case .unavailable: outage(id)
                case .published(let feed): Responses.json(feed, headers: [.cacheControl: "no-store"])
                }
            }
        }
        router.put("feeds/:id/outage") { _, context in
            await answer(context) { id in await feeds.setOutage(true, id: id) ? Response(status: .noContent) : nil }
        }
        router.delete("feeds/:id/outage") { _, context in
            await answer(context) { id in await feeds.setOutage(false, id: id) ? Response(status: .noContent) : nil }
        }
        router.get("feeds/:id/stats") { _, context in
            await answer(context) { id in
                await feeds.stats(id: id).map { Responses.json($0, headers: [.cacheControl: "no-store"]) }
            }
        }
    }

    /// The 503 of a feed with an outage.
    private static func outage(_ id: Int) -> Response {
        Responses.error("feed \(id) has an outage", status: .serviceUnavailable, headers: [.retryAfter: "0"])
    }

    /// Answers a route of the feed in the path: 400 for an id that is not a number,
    /// 404 when `body` finds no such feed.
    private static func answer(
        _ context: BasicRequestContext,
        _ body: (Int) async -> Response?
    ) async -> Response {
        guard let id = context.parameters.get("id", as: Int.self) else {
            return Responses.error("the feed id is not a number", status: .badRequest)
        }
        return await body(id) ?? Responses.error("no feed with id \(id)", status: .notFound)
    }
}
