import HTTPTypes

/// Puts a ``CredentialProvider``'s credential on every request, and renews it when it
/// expires or the server answers `401 Unauthorized`.
///
/// ```swift
/// let auth = AuthenticationMiddleware(BearerTokenProvider(BearerToken(savedToken)) { rejected in
///     try await authAPI.renew(rejected.value)
/// })
/// let networker = Networker(transport: transport, middleware: [auth, RetryMiddleware()])
/// ```
///
/// - A credential the provider reports expired is renewed before the request is sent.
/// - After a `401`, the credential is renewed once and the request sent once more with
///   the new one (its `401` body dropped); a second `401` is returned as it is. A request
///   whose body cannot be sent again (``MessageBody/isReplayable``) gets its `401` back at
///   once, and the renewal goes ahead for the requests that follow.
/// - Single flight: however many requests need a new credential together, the provider
///   refreshes once and they all wait for that refresh. A request rejected with a
///   credential older than the current one (someone else already renewed it) is sent
///   again with the current one, without another refresh. A failed refresh fails every
///   request waiting for it, and every request sent before it started that is rejected
///   afterwards, with the provider's error: ``StrataError/Kind/middleware`` naming this
///   type, with that error as ``StrataError/underlying``.
/// - Refresh window: at most `maxRefreshes` refreshes start within any `interval`; past
///   that, a `401` is returned as it is and an expired credential is sent as it is, so a
///   server that rejects everything cannot cause a storm of refreshes.
/// - Waiting for a refresh ends at once when the request is cancelled or its
///   ``MiddlewareContext/deadline`` passes; the refresh carries on for the others. It is
///   the only work that may outlive a request.
///
/// Refreshes are logged on the request's logger at info level (`credential refreshed`,
/// with `strata.auth.generation`: 1 for the first credential, one more per refresh).
/// Copies of the middleware share their credential.
public struct AuthenticationMiddleware<Provider: CredentialProvider>: Middleware {
    /// How many refreshes may start within ``defaultInterval`` unless told otherwise: 3.
    public static var defaultMaxRefreshes: Int { 3 }
    /// The length of the refresh window unless told otherwise: 60 seconds.
    public static var defaultInterval: Duration { .seconds(60) }

    private let store: CredentialStore<Provider>

    /// Creates the step for `provider`, allowing at most `maxRefreshes` refreshes to start
    /// within any `interval`.
    public init(_ provider: Provider, maxRefreshes: Int = defaultMaxRefreshes, per interval: Duration = defaultInterval)
    {
        self.init(provider, maxRefreshes: maxRefreshes, per: interval, now: { .now })
    }

    /// Creates the step with its own clock for the refresh window, for tests.
    init(
        _ provider: Provider, maxRefreshes: Int, per interval: Duration,
        now: @escaping @Sendable () -> ContinuousClock.Instant
    ) {
        store = CredentialStore(provider: provider, maxRefreshes: maxRefreshes, interval: interval, now: now)
    }

    /// The provider the credentials come from.
    public var provider: Provider { store.provider }

    /// Sends `request` with the credential, once more after a `401`; see the type's documentation.
    public func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        let failure = { (error: any Error) in Self.failure(error, request: request) }
        let issued = try await store.credential(for: context, failure: failure)
        let response = try await next(authorized(request, with: issued), body, context)
        guard response.0.status.code == 401 else { return response }
        let renewal = store.renewal(after: issued, context: context)
        guard body?.isReplayable != false, let renewal else { return response }
        await response.1?.discard(until: context.deadline)
        let renewed = try await store.settle(renewal, deadline: context.deadline, failure: failure)
        var context = context
        context.attempt += 1
        return try await next(authorized(request, with: renewed), body, context)
    }

    /// `request` carrying `issued`'s credential.
    private func authorized(_ request: HTTPRequest, with issued: IssuedCredential<Provider.Credential>) -> HTTPRequest {
        var request = request
        store.provider.apply(issued.credential, to: &request)
        return request
    }

    /// The error for a failed load or refresh: the provider's own, which the pipeline
    /// reports as ``StrataError/Kind/middleware`` naming this type; an error that would
    /// pass through the pipeline untouched (a ``StrataError`` from a refresh request, say)
    /// is wrapped here the same way.
    private static func failure(_ error: any Error, request: HTTPRequest) -> any Error {
        guard StrataError.passesThroughSteps(error) else { return error }
        return StrataError(.middleware, underlying: error, request: request, middleware: String(describing: Self.self))
    }
}

extension AuthenticationMiddleware {
    /// `true`: it waits for a credential under the deadline, and for nothing else but `next`.
    public var boundsItsWaits: Bool { true }
}
