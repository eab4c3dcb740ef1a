#if GRPC
    import GRPCCore
    import Strata

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    extension Array where Element == any ClientInterceptor {
        /// The gRPC counterpart of the HTTP `.resilient()` preset, driving the same policies
        /// with the same defaults, outermost first:
        /// 1. retry (``GRPCRetryInterceptor``: `unavailable`, with its `RetryBudget`),
        ///    for `idempotentMethods` and endpoints marked with ``GRPCEndpoint/retry(_:)``;
        /// 2. the circuit breaker (``GRPCCircuitBreakerInterceptor``), counting every attempt;
        /// 3. `authentication` (a ``GRPCAuthenticationInterceptor``), so a renewed credential
        ///    goes on the attempt that follows.
        ///
        /// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests makes these calls) -->
        /// ```swift
        /// let networker = GRPCNetworker(
        ///     transport: transport,
        ///     interceptors: .resilient(idempotentMethods: [Strata_Demo_V1_UserService.Method.GetUser.descriptor]))
        /// ```
        ///
        /// Each part is tuned by its policy or turned off with `nil`; make the interceptors once
        /// per client, as the breakers and the budget are shared by its calls.
        public static func resilient(
            retry: Strata.RetryPolicy? = Strata.RetryPolicy(),
            budget: RetryBudget? = RetryBudget(),
            idempotentMethods: Set<MethodDescriptor> = [],
            circuitBreaker: CircuitBreakerPolicy? = CircuitBreakerPolicy(),
            authentication: (any ClientInterceptor)? = nil
        ) -> [any ClientInterceptor] {
            var interceptors: [any ClientInterceptor] = []
            if let retry {
                interceptors.append(
                    GRPCRetryInterceptor(policy: retry, budget: budget, idempotentMethods: idempotentMethods))
            }
            if let circuitBreaker { interceptors.append(GRPCCircuitBreakerInterceptor(policy: circuitBreaker)) }
            if let authentication { interceptors.append(authentication) }
            return interceptors
        }
    }
#endif
