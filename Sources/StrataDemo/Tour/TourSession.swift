import Strata

/// What the steps share: the API, the client, and the token the login step stores.
struct TourSession: Sendable {
    /// The endpoints, on the server under test.
    let api: DemoAPI
    /// The client, with the tour's middleware.
    let networker: Networker
    /// The bearer token, once a login succeeded.
    let tokens: TokenStore
    /// A client like ``networker`` whose credentials come from the given
    /// authentication step instead of ``tokens``.
    let authenticatedNetworker: @Sendable (_ authentication: any Middleware) -> Networker
    /// A client like ``networker`` with a ``CacheMiddleware`` over a ``MemoryCacheStore``
    /// of its own, and no credentials (the feeds are public); the recorder sits between
    /// the cache and the transport, so the transcript shows what reached the server.
    let cachingNetworker: Networker
    /// A plain client for the stage directions of a step (create a feed, start an
    /// outage, ask what the server saw), which the transcript does not record.
    let backstage: Networker
    /// Writes text as a step produces it (a streamed reply, token by token), before the
    /// step's line.
    let progress: @Sendable (String) -> Void
}
