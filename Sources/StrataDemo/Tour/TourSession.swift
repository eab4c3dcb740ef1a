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
}
