import HTTPTypes

extension Networker {
    /// Starts the background revalidation that `context`'s call owes its cache, if it
    /// owes one (a ``CacheMiddleware`` served a stale response within
    /// `stale-while-revalidate`): `request` again, through every middleware, with
    /// `Cache-Control: no-cache` so that the cache revalidates it, in a task of the
    /// cache's own (one per key). It ends within the call's deadline and the cache's
    /// ``CacheMiddleware/Configuration/revalidationTimeout``; its body is read only to be
    /// stored, and a failure is logged at debug level.
    func startDueRevalidation(of request: HTTPRequest, after context: MiddlewareContext) {
        guard let due = context.cacheRecord?.value?.revalidation else { return }
        var request = request
        request.headerFields[.cacheControl] = "no-cache"
        let limit = ContinuousClock.now + due.timeout
        var background = MiddlewareContext(
            deadline: min(context.deadline ?? limit, limit), attemptTimeout: context.attemptTimeout,
            attributes: context.attributes, logger: configuration.logger, retry: context.retry, cache: .remoteOnly)
        background.callLogger = CallLogger(configuration.logger, requestID: Pipeline.nextRequestID())
        let networker = self
        due.revalidations.start(due.key) { [request, background] in
            do {
                _ = try await networker.exchange(request, body: nil, context: background)
            } catch {
                background.logger.debug("cache revalidation failed", metadata: ["strata.cache.error": "\(error)"])
            }
        }
    }
}
