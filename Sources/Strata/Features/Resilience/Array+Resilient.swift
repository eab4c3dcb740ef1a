extension Array where Element == any Middleware {
    /// The resilience steps in their recommended order, as a client's middleware:
    ///
    /// ```swift
    /// let networker = Networker(
    ///     transport: transport,
    ///     middleware: .resilient(authentication: AuthenticationMiddleware(tokens)))
    /// ```
    ///
    /// From the outside in:
    /// 1. `logging`, once per call;
    /// 2. redirects (``RedirectMiddleware``): each hop is a request of its own to the
    ///    steps below, so it is retried, guarded and authenticated like any other;
    /// 3. retry (``RetryMiddleware`` with its ``RetryBudget``);
    /// 4. the circuit breaker (``CircuitBreakerMiddleware``): it counts every attempt,
    ///    and once it opens, the retry step stops at the first fast failure;
    /// 5. `authentication`, so a refreshed credential goes on the attempt it retries;
    /// 6. `perAttempt` (header fields, signing), on every attempt;
    /// 7. the transport.
    ///
    /// The ``Networker`` enforces the call's total deadline
    /// (``Networker/Configuration/timeout``) around all of it and the attempt timeout
    /// (``Networker/Configuration/attemptTimeout``) around each pass through the transport.
    ///
    /// Each part is tuned by its policy or turned off with `nil`. Make the steps once per
    /// client: the breakers and the budget are shared by the calls of the client that
    /// holds them.
    /// - Parameters:
    ///   - logging: the logging step, outermost; `nil` (the default) for none.
    ///   - redirects: how redirects are followed; `nil` leaves them to the client's
    ///     ``Networker/Configuration/redirects``.
    ///   - retry: when to send a request again; `nil` for no retries.
    ///   - budget: the retries the client may make in all; `nil` for no limit.
    ///   - circuitBreaker: when to stop calling a failing host; `nil` for no breaker.
    ///   - authentication: attaches and refreshes credentials, for example an
    ///     ``AuthenticationMiddleware``; `nil` for none.
    ///   - perAttempt: steps that run on every attempt, innermost.
    public static func resilient(
        logging: LoggingMiddleware? = nil,
        redirects: RedirectPolicy? = RedirectPolicy(),
        retry: RetryPolicy? = RetryPolicy(),
        budget: RetryBudget? = RetryBudget(),
        circuitBreaker: CircuitBreakerPolicy? = CircuitBreakerPolicy(),
        authentication: (any Middleware)? = nil,
        perAttempt: [any Middleware] = []
    ) -> [any Middleware] {
        let steps: [(any Middleware)?] = [
            logging,
            redirects.map { RedirectMiddleware(policy: $0) },
            retry.map { RetryMiddleware(policy: $0, budget: budget) },
            circuitBreaker.map { CircuitBreakerMiddleware(policy: $0) },
            authentication,
        ]
        return steps.compactMap { $0 } + perAttempt
    }
}
