extension Networker {
    /// The "show the cached value, then the fresh one" pattern: a sequence that yields
    /// the stored response for `endpoint` first (fresh or stale, when the client's
    /// ``CacheMiddleware`` has one), then the response of the standard
    /// (``CacheStrategy/remoteOnly``) load, unless its body is the same bytes (a `304`,
    /// or a stored response still fresh).
    ///
    /// ```swift
    /// for try await feed in networker.cacheThenRemote(feedEndpoint) {
    ///     render(feed.value, source: feed.cache?.source)   // cache first, then network
    /// }
    /// ```
    ///
    /// A cached body that no longer parses is skipped. The sequence throws the remote
    /// load's ``StrataError`` after yielding the cached value, so a screen keeps showing
    /// it and reports the failure. Without a ``CacheMiddleware`` it yields the remote
    /// response alone.
    public func cacheThenRemote<Response>(_ endpoint: Endpoint<Response>) -> CacheThenRemote<Response> {
        CacheThenRemote(networker: self, endpoint: endpoint)
    }
}

/// The sequence ``Networker/cacheThenRemote(_:)`` returns: at most two responses, the
/// stored one, then the fresh one when it differs.
public struct CacheThenRemote<Response>: AsyncSequence, Sendable {
    /// A loaded response; ``EndpointResponse/cache`` says where it came from.
    public typealias Element = EndpointResponse<Response>
    /// What the remote load throws.
    public typealias Failure = StrataError

    let networker: Networker
    let endpoint: Endpoint<Response>

    /// Starts the sequence; each iterator loads anew.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(networker: networker, endpoint: endpoint)
    }

    /// Loads the cached response, then the remote one.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// A loaded response.
        public typealias Element = EndpointResponse<Response>
        /// What the remote load throws.
        public typealias Failure = StrataError

        private enum Step {
            case cached
            case remote(cachedBody: [UInt8]?)
            case finished
        }

        private let networker: Networker
        private let endpoint: Endpoint<Response>
        private var step = Step.cached

        init(networker: Networker, endpoint: Endpoint<Response>) {
            self.networker = networker
            self.endpoint = endpoint
        }

        /// The next response, or `nil` when the sequence is over.
        /// - Throws: the remote load's ``StrataError``.
        public mutating func next() async throws(StrataError) -> EndpointResponse<Response>? {
            if case .cached = step {
                step = .remote(cachedBody: nil)
                if networker.installedStep(CacheMiddleware.self) != nil,
                    let cached = try? await networker.response(for: endpoint.cache(.cacheOnly))
                {
                    step = .remote(cachedBody: Array(cached.body))
                    return cached
                }
            }
            guard case .remote(let cachedBody) = step else { return nil }
            step = .finished
            let fresh = try await networker.response(for: endpoint.cache(.remoteOnly))
            if let cachedBody, cachedBody.elementsEqual(fresh.body) { return nil }
            return fresh
        }
    }
}
