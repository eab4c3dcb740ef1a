import HTTPTypes

// The caching feature's per-call values, records and stages, under its own keys.

/// How the endpoint asks the cache to treat it.
enum CacheStrategyKey: CallValueKey {
    typealias Value = CacheStrategy
}

/// Where the cache leaves a call's ``CacheOutcome``.
enum CacheOutcomeKey: CallValueKey {
    typealias Value = CacheOutcome
}

extension Endpoint {
    /// How a client's ``CacheMiddleware`` treats this endpoint; `nil` uses its
    /// ``CacheMiddleware/Configuration/strategy``.
    public var cache: CacheStrategy? {
        get { options[CacheStrategyKey.self] }
        set { options[CacheStrategyKey.self] = newValue }
    }

    /// How a client's ``CacheMiddleware`` treats this call (``cache``).
    public func cache(_ strategy: CacheStrategy) -> Endpoint {
        option(CacheStrategyKey.self, strategy)
    }
}

extension MiddlewareContext {
    /// The endpoint's cache strategy (see ``Endpoint/cache``), for ``CacheMiddleware``.
    public var cache: CacheStrategy? {
        get { options[CacheStrategyKey.self] }
        set { options[CacheStrategyKey.self] = newValue }
    }
}

extension EndpointResponse {
    /// Where the response came from (network, cache, revalidated) and how old it was,
    /// when the client has a ``CacheMiddleware``.
    public var cache: CacheOutcome? { records[CacheOutcomeKey.self] }
}

extension StrataError {
    /// Where the failed response came from (a stored body that no longer parses says
    /// `cache`), when the client has a ``CacheMiddleware`` and it answered.
    public var cache: CacheOutcome? { records[CacheOutcomeKey.self] }
}

extension FinishedCall {
    /// Where the response came from, when the client has a ``CacheMiddleware`` and it
    /// answered.
    public var cache: CacheOutcome? { records[CacheOutcomeKey.self] }
}

extension StrataError.Kind {
    /// The endpoint's ``CacheStrategy/cacheOnly`` found nothing stored for the request.
    public static let cacheMiss = StrataError.Kind("cacheMiss") { _ in "nothing stored for the request (cacheOnly)" }
}

extension MiddlewareContext {
    /// Leaves the background revalidation of `request` for after this call (it served a
    /// stale response within `stale-while-revalidate`): `request` again, through every
    /// middleware of the client, with `Cache-Control: no-cache` so that the cache
    /// revalidates it, one per key at a time (``Networker/background``). It ends within
    /// the call's deadline and `timeout`; its body is read only to be stored, and a failure
    /// is logged at debug level.
    func revalidateAfterCall(_ request: HTTPRequest, key: CacheKey, timeout: Duration) {
        var request = request
        request.headerFields[.cacheControl] = "no-cache"
        let limit = ContinuousClock.now + timeout
        let deadline = min(self.deadline ?? limit, limit)
        var options = self.options
        options[CacheStrategyKey.self] = .remoteOnly
        let (attemptTimeout, attributes) = (self.attemptTimeout, self.attributes)
        afterCall(id: key) { [request, options] networker in
            let context = networker.makeContext(
                deadline: deadline, attemptTimeout: attemptTimeout, attributes: attributes, options: options)
            do {
                _ = try await networker.buffered(request, body: nil, context: context)
            } catch {
                context.logger.debug("cache revalidation failed", metadata: ["strata.cache.error": "\(error)"])
            }
        }
    }
}
