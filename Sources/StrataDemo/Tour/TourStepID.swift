/// The steps of the tour, in the order they run.
public enum TourStepID: String, Sendable, CaseIterable {
    /// `GET /users/1` into the raw layer: `Endpoint(_:raw:)` → ``UserEntry``.
    case rawLayer
    /// `GET /users/1` into the app layer: `Endpoint(_:model:)` → ``UserEntry`` → ``User``.
    case appLayer
    /// `GET /photos/5` with `networker.load(_:completion:)` → ``AlbumPhoto``.
    case photoCallback
    /// `GET /users?page=1&search=an`: parameters in the URL query → ``UsersPage``.
    case queryEncoding
    /// `POST /user/register`: a ``User`` sent as its DTO in a JSON body.
    case jsonEncoding
    /// `POST /users/1/avatar`: a multipart upload → ``AvatarUpload``.
    case multipartUpload
    /// `GET /headers`: fields from ``HeadersMiddleware`` and from the request itself.
    case headers
    /// `POST /user/auth`: form-encoded credentials → ``AuthToken``.
    case formLogin
    /// `GET /me` with the token from ``formLogin`` as a bearer token → ``User``.
    case bearerAuth
    /// `POST /user/auth` with a wrong password: an expected 401.
    case wrongPassword
    /// `GET /users/99`: an expected 404.
    case notFound
    /// `GET /broken`: an expected decoding error.
    case malformedBody
    /// `GET /flaky`: two 503s, retried by ``RetryMiddleware`` until the third call succeeds.
    case flaky
    /// `GET /me` with an expired token: a 401, one refresh (a new sign-in) by
    /// ``AuthenticationMiddleware``, then the same request again, answered.
    case tokenRefresh
    /// `GET /feeds/:id` twice with `networker.cacheThenRemote(_:)`: the network first; after
    /// a new post, the stored feed (``CacheOutcome/Source/cache``), then the fresh one.
    case cacheThenRemote
    /// `GET /feeds/:id` with ``CacheStrategy/remoteElseCache`` during an outage: the server
    /// answers 503, and the stored feed is served (``CacheOutcome/Source/cache``, with its age).
    case offlineFallback
    /// `POST /feeds/:id/posts` three times through an ``Outbox`` during an outage: kept
    /// while the server answers 503, then delivered once each, in order, when it ends.
    case offlineWrites
    /// `GET /chat` as server-sent events, each `data` decoded into a ``ChatChunk`` until
    /// `[DONE]`, the tokens printed as they arrive.
    case chatStream
    /// `GET /notifications` over connections the server drops: twelve ``Notice``s without a
    /// gap, each reconnection resuming with `Last-Event-ID`, until the server's 204.
    case notificationsResume
    /// `GET /files/tour.bin` downloaded with a progress bar: the server cuts the first
    /// response halfway, and the client's retry step continues it with `Range` and
    /// `If-Range` in the same call.
    case downloadResumes
    /// `POST /uploads/tour.bin` on the upload host with `networker.upload(_:from:progress:)`:
    /// the server cuts the first `PATCH` at 1 MiB, and the client asks the offset (`HEAD`)
    /// and sends the rest in the same call; the stored bytes' SHA-256 is the file's.
    case resumableUpload
    /// `GET /users?page=1`, `2`, … read with `networker.pages(…).items` until an empty page.
    case pagedList
    /// `getUser` of the demo API's generated OpenAPI client over the tour's client, its
    /// schema type mapped into the same ``User`` as ``appLayer``.
    case generatedClient
    /// `putFlaky` of the generated client: two 503s retried by the tour's ``RetryMiddleware``,
    /// the server counting three calls.
    case generatedClientRetries
}
