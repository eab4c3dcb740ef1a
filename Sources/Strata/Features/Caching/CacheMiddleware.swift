import Foundation
import HTTPTypes

/// A private HTTP cache (RFC 9111) as a middleware step, the same on every transport,
/// with a per-endpoint ``CacheStrategy`` on top.
///
/// ```swift
/// let cache = CacheMiddleware(store: MemoryCacheStore(capacity: 32 * 1024 * 1024))
/// let networker = Networker(transport: transport, middleware: [retry, auth, cache])
/// let feed = try await networker.response(for: feedEndpoint.cache(.remoteElseCache))
/// let outcome = feed.cache  // CacheOutcome: network, cache or revalidated, and the age
/// ```
///
/// What it stores: responses to `GET` that RFC 9111 §3 allows (see the
/// Caching article): not `no-store`, not `Vary: *`, with bodies of at most
/// ``Configuration/maxBodySize`` bytes (a larger body passes through unstored, read
/// once, never buffered whole). A request with `Authorization` is stored only when the
/// response says `public`, `s-maxage` or `must-revalidate`. A `206` to a single byte
/// range is stored as a partial response when it has a strong `ETag`, and combined with
/// the stored part of the same `ETag` it overlaps or touches — into a complete `200`
/// once every byte is there (RFC 9111 §3.3–3.4). A `GET` with one byte range (`Range:
/// bytes=first-last`, `first-` or `-suffix`) is answered from a fresh stored response
/// that holds those bytes — a `206` with its `Content-Range`, or a `416` past the end —
/// unless its `If-Range` names another validator; otherwise it goes to the network.
/// Requests with their own conditional fields or other ranges, and methods other than
/// `GET`, pass through; a `200` to
/// a `HEAD` updates the stored `GET` of its URI when the validators match (new fields,
/// new age) and removes it when they do not; a successful unsafe request (`POST`, `PUT`,
/// `PATCH`, `DELETE`, …) removes its target and its same-origin `Location` and
/// `Content-Location` from the store.
///
/// How it answers (``CacheStrategy/remoteOnly``): a fresh stored response is served
/// with an `Age` field; a stale one is revalidated with `If-None-Match` /
/// `If-Modified-Since`, and a `304` gives the caller the stored status and body with the
/// updated fields (``CacheOutcome/Source/revalidated``). Within `stale-while-revalidate`
/// the stale response is served at once (marked ``CacheOutcome/isStale``) and revalidated
/// in the background (RFC 5861 §3): once the call ends, the cache has its ``Networker``
/// send the request again, through all of its middleware, with `Cache-Control: no-cache`,
/// as work of the client's ``Networker/background`` (one per key at a time), within the
/// call's timeout and at most ``Configuration/revalidationTimeout``
/// (`networker.background.waitForAll()` awaits those under way). Within `stale-if-error` a stale response is served when revalidation fails with
/// a transport error or a 5xx.
///
/// Place it after ``AuthenticationMiddleware`` so that it sees the `Authorization` field
/// the rule above is about, and so that the retry step outside it retries real network
/// failures only.
public struct CacheMiddleware: Middleware {
    /// Settings of a cache.
    public struct Configuration: Sendable {
        /// The largest body stored, in bytes (default 1 MiB); larger ones pass through.
        public var maxBodySize: Int
        /// Whether responses without explicit freshness get a heuristic lifetime (10% of
        /// the time since `Last-Modified`, at most a day; RFC 9111 §4.2.2). Off by default.
        public var usesHeuristicFreshness: Bool
        /// The strategy of endpoints that set none (default ``CacheStrategy/remoteOnly``).
        public var strategy: CacheStrategy
        /// The longest a background revalidation (within `stale-while-revalidate`) runs
        /// (default 30 s); the client's timeout bounds it too.
        public var revalidationTimeout: Duration

        /// Creates settings.
        public init(
            maxBodySize: Int = 1024 * 1024,
            usesHeuristicFreshness: Bool = false,
            strategy: CacheStrategy = .remoteOnly,
            revalidationTimeout: Duration = .seconds(30)
        ) {
            self.maxBodySize = maxBodySize
            self.usesHeuristicFreshness = usesHeuristicFreshness
            self.strategy = strategy
            self.revalidationTimeout = revalidationTimeout
        }
    }

    /// Where responses are kept.
    public let store: any CacheStore
    /// The cache's settings.
    public let configuration: Configuration
    private let now: @Sendable () -> Date

    /// Creates a cache over `store`.
    /// - Parameters:
    ///   - store: where responses are kept.
    ///   - configuration: limits, heuristic freshness and the default strategy.
    ///   - now: the wall clock that dates requests and responses and ages them; inject
    ///     one to test expiry without waiting.
    public init(
        store: any CacheStore,
        configuration: Configuration = Configuration(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.configuration = configuration
        self.now = now
    }

    /// Answers `request` from the store, the network or both; see the type's documentation.
    /// - Throws: ``StrataError`` of kind ``StrataError/Kind/cacheMiss`` for a
    ///   ``CacheStrategy/cacheOnly`` miss, and whatever `next` throws.
    public func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        guard CacheRules.safeMethods.contains(request.method) else {
            let (response, responseBody) = try await next(request, body, context)
            for key in CacheRules.invalidatedKeys(request, response) {
                await attempt("invalidate", context) { try await store.remove(key) }
            }
            return (response, responseBody)
        }
        if request.method == .head, let key = CacheKey(request)?.forGet {
            return try await freshen(key, with: request, body: body, context: context, next: next)
        }
        if request.method == .get, let key = CacheKey(request), let range = ByteRange(request.headerFields[.range]),
            !Self.hasValidators(request)
        {
            let exchange = CacheLookup(cache: self, key: key, request: request, body: body, context: context)
            if exchange.requestDirectives.noStore { return try await next(request, body, context) }
            return try await exchange.ranged(range, next)
        }
        guard request.method == .get, let key = CacheKey(request), !Self.bypasses(request) else {
            return try await next(request, body, context)
        }
        let exchange = CacheLookup(cache: self, key: key, request: request, body: body, context: context)
        if exchange.requestDirectives.noStore { return try await exchange.fetch(request, next) }
        let stored = await lookup(key, for: request, context)
        switch context.cache ?? configuration.strategy {
        case .cacheOnly:
            guard let stored else { throw StrataError(.cacheMiss, request: request) }
            return exchange.serve(stored, as: .cache)
        case .cacheElseRemote:
            guard let stored else { return try await exchange.fetch(request, next) }
            return exchange.serve(stored, as: .cache)
        case .remoteElseCache:
            guard let stored else { return try await exchange.fetch(request, next) }
            return try await exchange.revalidate(stored, next) { _ in true }
        case .remoteOnly:
            return try await exchange.standard(stored, next)
        }
    }

    /// `true` with a ``MemoryCacheStore``, whose calls do not wait: another store's
    /// calls are code Strata cannot vouch for. The cache reads bodies within the deadline.
    public var boundsItsWaits: Bool { store is MemoryCacheStore }

    /// Sends a `HEAD` and, when it is answered `200`, updates the stored `GET` response
    /// it would have chosen with the new fields and times, or removes the `GET`'s
    /// variants when the validators say the resource changed (RFC 9111 §4.3.5).
    private func freshen(
        _ key: CacheKey,
        with request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        let requestTime = now()
        let (response, responseBody) = try await next(request, body, context)
        guard response.status.code == 200, let stored = await lookup(key, for: request, context) else {
            return (response, responseBody)
        }
        if let updated = CacheRules.freshened(stored, byHead: response, requestTime: requestTime, responseTime: now()) {
            await attempt("write", context) { try await store.store(updated, for: key) }
        } else {
            await attempt("invalidate", context) { try await store.remove(key) }
        }
        return (response, responseBody)
    }

    /// The first stored variant that answers `request` (RFC 9111 §4.1); a store failure
    /// is a miss.
    func lookup(_ key: CacheKey, for request: HTTPRequest, _ context: MiddlewareContext) async
        -> CachedResponse?
    {
        await attempt("read", context) { try await store.variants(for: key) }?
            .first { CacheRules.matches($0, request) }
    }

    /// Runs a store operation; a failure is logged and reads as `nil`.
    @discardableResult
    func attempt<Value>(
        _ operation: String,
        _ context: MiddlewareContext,
        _ body: () async throws -> Value
    ) async -> Value? {
        do {
            return try await body()
        } catch {
            context.logger.warning(
                "cache store failed",
                metadata: [
                    "strata.cache.operation": "\(operation)", "strata.cache.error": "\(error)",
                ])
            return nil
        }
    }

    /// Requests the cache leaves alone: with their own validators, or a range it does not
    /// read (several ranges, another unit).
    private static func bypasses(_ request: HTTPRequest) -> Bool {
        hasValidators(request) || request.headerFields[.ifRange] != nil || request.headerFields[.range] != nil
    }

    /// Whether `request` has validators of its own (`If-Range` aside).
    private static func hasValidators(_ request: HTTPRequest) -> Bool {
        let fields = request.headerFields
        return [.ifNoneMatch, .ifModifiedSince, .ifMatch, .ifUnmodifiedSince].contains { fields[$0] != nil }
    }

    var heuristic: Bool { configuration.usesHeuristicFreshness }
    var clock: @Sendable () -> Date { now }
}

/// One `GET` through the cache: the request, its directives and the way on.
struct CacheLookup {
    let cache: CacheMiddleware
    let key: CacheKey
    let request: HTTPRequest
    let body: MessageBody?
    let context: MiddlewareContext
    let requestDirectives: CacheControl

    init(cache: CacheMiddleware, key: CacheKey, request: HTTPRequest, body: MessageBody?, context: MiddlewareContext) {
        self.cache = cache
        self.key = key
        self.request = request
        self.body = body
        self.context = context
        self.requestDirectives = CacheControl(request.headerFields)
    }

    /// RFC 9111 for `remoteOnly`: serve fresh, revalidate stale, honour the request's
    /// `only-if-cached` and the response's stale extensions.
    func standard(_ stored: CachedResponse?, _ next: MiddlewareNext) async throws -> (HTTPResponse, MessageBody?) {
        let now = cache.clock()
        let use = stored.map { CacheRules.use(of: $0, for: requestDirectives, at: now, heuristic: cache.heuristic) }
        if requestDirectives.onlyIfCached {
            guard let stored, let use, use != .revalidate else {
                return (HTTPResponse(status: .gatewayTimeout), nil)  // RFC 9111 §5.2.1.7
            }
            return serve(stored, as: .cache)
        }
        guard let stored, let use else { return try await fetch(request, next) }
        switch use {
        case .serve:
            return serve(stored, as: .cache)
        case .serveWhileRevalidating:
            context.revalidateAfterCall(request, key: key, timeout: cache.configuration.revalidationTimeout)
            return serve(stored, as: .cache)
        case .revalidate:
            return try await revalidate(stored, next) { _ in
                CacheRules.allowsStaleIfError(
                    stored, for: requestDirectives, at: cache.clock(), heuristic: cache.heuristic)
            }
        }
    }

    /// Sends `request` and stores what may be stored.
    func fetch(_ request: HTTPRequest, _ next: MiddlewareNext) async throws -> (HTTPResponse, MessageBody?) {
        let requestTime = cache.clock()
        let (response, responseBody) = try await next(request, body, context)
        return try await keep(response, responseBody, requestTime: requestTime)
    }

    /// Sends the request conditional on `stored`'s validators. A `304` serves `stored`
    /// updated; a transport failure or a 5xx serves `stored` when `fallback` allows it
    /// (it gets the failure, or `nil` for a 5xx); anything else is the new response.
    func revalidate(
        _ stored: CachedResponse,
        _ next: MiddlewareNext,
        fallback: (_ failure: (any Error)?) -> Bool
    ) async throws -> (HTTPResponse, MessageBody?) {
        let conditional = CacheRules.conditional(request, on: stored) ?? request
        let requestTime = cache.clock()
        let response: HTTPResponse
        let responseBody: MessageBody?
        do {
            (response, responseBody) = try await next(conditional, body, context)
        } catch  where !StrataError.isCancellation(error) && !Task.isCancelled && fallback(error) {
            context.logger.debug("cache fallback", metadata: ["strata.cache.after": "\(error)"])
            return serve(stored, as: .cache)
        }
        if response.status.code == 304 {
            await responseBody?.discard(until: context.deadline)
            guard
                let updated = CacheRules.revalidated(
                    stored, by: response, requestTime: requestTime,
                    responseTime: cache.clock())
            else { return try await fetch(request, next) }
            await cache.attempt("write", context) { try await cache.store.store(updated, for: key) }
            return serve(updated, as: .revalidated)
        }
        if response.status.code >= 500, fallback(nil) {
            await responseBody?.discard(until: context.deadline)
            return serve(stored, as: .cache)
        }
        return try await keep(response, responseBody, requestTime: requestTime)
    }

    /// `stored` as a response: its head with an `Age` field, its body in memory.
    func serve(_ stored: CachedResponse, as source: CacheOutcome.Source) -> (HTTPResponse, MessageBody?) {
        let now = cache.clock()
        let age = stored.currentAge(at: now)
        let isStale = stored.freshnessLifetime(heuristic: cache.heuristic) <= age
        var head = stored.head
        head.headerFields[.age] = "\(age)"
        cache.record(CacheOutcome(source: source, age: .seconds(age), isStale: isStale), context)
        return (head, MessageBody(stored.body))
    }

    /// Stores `response` when it may be stored and its body fits, and hands it on: the
    /// body in memory when stored, else as it came (a body found too large while reading
    /// continues from where the reading stopped).
    func keep(_ response: HTTPResponse, _ responseBody: MessageBody?, requestTime: Date) async throws -> (
        HTTPResponse, MessageBody?
    ) {
        let responseTime = cache.clock()
        let limit = cache.configuration.maxBodySize
        var entry = CachedResponse(
            head: CacheRules.storedHead(response), body: Data(), requestTime: requestTime,
            responseTime: responseTime,
            variedFields: CacheRules.variedFields(of: request, for: response) ?? [:])
        cache.record(
            CacheOutcome(source: .network, age: .seconds(entry.currentAge(at: responseTime)), isStale: false), context)
        guard CacheRules.isStorable(request, response), (responseBody?.length ?? 0) <= Int64(limit) else {
            return (response, responseBody)
        }
        switch try await Self.buffer(responseBody, upTo: limit, until: context.deadline) {
        case .complete(let data):
            entry.body = data
            await cache.attempt("write", context) { try await cache.store.store(entry, for: key) }
            return (response, responseBody == nil ? nil : MessageBody(data))
        case .tooLarge(let partial):
            return (response, partial)
        }
    }

    enum Buffered: Sendable {
        case complete(Data)
        case tooLarge(MessageBody)
    }

    /// Reads `body` while it fits in `limit` bytes, giving up at `deadline` (a body in
    /// memory needs no deadline).
    static func buffer(
        _ body: MessageBody?,
        upTo limit: Int,
        until deadline: ContinuousClock.Instant?
    ) async throws -> Buffered {
        guard let body else { return .complete(Data()) }
        let read = await body.read(until: deadline) { try await buffer($0, upTo: limit) }
        if read.timedOut { throw TransportError(.timedOut) }
        return try read.result.get()
    }

    /// Reads `body` while it fits in `limit` bytes.
    private static func buffer(_ body: MessageBody?, upTo limit: Int) async throws -> Buffered {
        guard let body else { return .complete(Data()) }
        if let data = body.bufferedData { return data.count <= limit ? .complete(data) : .tooLarge(body) }
        var data = Data()
        var iterator = body.makeAsyncIterator()
        while let chunk = try await iterator.next() {
            data.append(chunk)
            if data.count > limit {
                return .tooLarge(MessageBody(length: body.length, streaming: ResumedChunks(read: data, rest: iterator)))
            }
        }
        return .complete(data)
    }

}

extension CacheMiddleware {
    func record(_ outcome: CacheOutcome, _ context: MiddlewareContext) {
        context.record(outcome, for: CacheOutcomeKey.self)
    }
}

/// The rest of a body after a first part was read: that part, then the chunks left.
private struct ResumedChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let read: Data
    let rest: MessageBody.AsyncIterator

    struct AsyncIterator: AsyncIteratorProtocol {
        var read: Data?
        var rest: MessageBody.AsyncIterator

        mutating func next() async throws -> Data? {
            if let chunk = read {
                read = nil
                return chunk
            }
            return try await rest.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(read: read, rest: rest) }
}
