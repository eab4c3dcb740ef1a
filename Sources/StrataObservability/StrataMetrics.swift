#if Observability
    import Metrics
    import Strata

    /// Strata's own metrics, read from what each finished call recorded (a `CallObserver`):
    /// the same records the call's response or error carries, so the numbers and the values
    /// a caller sees never disagree.
    ///
    /// ```swift
    /// var configuration = Networker.Configuration()
    /// configuration.callObservers = [StrataMetrics()]
    /// ```
    ///
    /// - `strata.client.calls` (counter): every call, with `outcome` `success` or the
    ///   `StrataError.Kind` it failed with.
    /// - `strata.retry.attempts` (recorder) and `strata.retry.stops` (counter, with
    ///   `strata.retry.stop_reason`: `attemptsExhausted`, `budgetSpent`, `deadline`, …) for
    ///   each call a `RetryMiddleware` retried or stopped retrying.
    /// - `strata.cache.lookups` (counter, with `strata.cache.source` — `cache` for a hit,
    ///   `revalidated`, `network` for a miss — and `strata.cache.stale`) for each call a
    ///   `CacheMiddleware` answered.
    /// - `strata.coalescing.calls` (counter, with `strata.coalescing` `sent` or `joined`)
    ///   for each call a `CoalescingMiddleware` could coalesce: `joined` counts the
    ///   requests that never reached the server.
    /// - `strata.circuit.transitions` (counter, with `server.address` and
    ///   `strata.circuit.state`) for each breaker change.
    /// - `strata.auth.refreshes` (counter): the credential refreshes calls started (calls that
    ///   waited for one already under way start none).
    public struct StrataMetrics: CallObserver {
        /// The metrics factory given to ``init(metrics:)``, else `nil` for the one
        /// bootstrapped in `MetricsSystem`.
        public let metrics: (any MetricsFactory)?

        /// Reports to `metrics`, or to the bootstrapped factory.
        public init(metrics: (any MetricsFactory)? = nil) {
            self.metrics = metrics
        }

        /// Counts `call`; see the type's documentation.
        public func callEnded(_ call: FinishedCall) {
            let factory = metrics ?? MetricsSystem.factory
            if factory is NOOPMetricsHandler { return }  // no backend: nothing to count
            let outcome = call.error.map { "\($0.kind)" } ?? "success"
            Counter(label: "strata.client.calls", dimensions: [("outcome", outcome)], factory: factory).increment()
            if let retry = call.retry, retry.attempts > 1 || retry.stopReason != .notRetryable {
                Recorder(label: "strata.retry.attempts", factory: factory).record(retry.attempts)
                Counter(
                    label: "strata.retry.stops", dimensions: [("strata.retry.stop_reason", "\(retry.stopReason)")],
                    factory: factory
                ).increment()
            }
            if let cache = call.cache {
                Counter(
                    label: "strata.cache.lookups",
                    dimensions: [
                        ("strata.cache.source", "\(cache.source)"), ("strata.cache.stale", "\(cache.isStale)"),
                    ],
                    factory: factory
                ).increment()
            }
            if let coalescing = call.coalescing {
                Counter(
                    label: "strata.coalescing.calls", dimensions: [("strata.coalescing", "\(coalescing)")],
                    factory: factory
                ).increment()
            }
            if let refreshes = call.credentialRefreshes {
                Counter(label: "strata.auth.refreshes", factory: factory).increment(by: refreshes)
            }
            for transition in call.circuitTransitions ?? [] {
                Counter(
                    label: "strata.circuit.transitions",
                    dimensions: [("server.address", transition.host), ("strata.circuit.state", transition.state)],
                    factory: factory
                ).increment()
            }
        }
    }
#endif
