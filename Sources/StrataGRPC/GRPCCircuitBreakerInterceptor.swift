#if GRPC
    import GRPCCore
    import Strata

    /// Stops sending gRPC calls to a server that keeps failing, under Strata's
    /// `CircuitBreakerPolicy`: the same breakers `CircuitBreakerMiddleware`
    /// keeps for HTTP hosts, driven by the same code.
    ///
    /// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests makes these calls) -->
    /// ```swift
    /// let breaker = GRPCCircuitBreakerInterceptor(
    ///     policy: CircuitBreakerPolicy(consecutiveFailures: 5), target: "users.internal:443")
    /// let networker = GRPCNetworker(transport: transport, interceptors: [retry, breaker])
    /// ```
    ///
    /// Each target has its own breaker, keyed `grpc://target`: the `target` given to the
    /// initialiser, else the connection's remote peer as grpc-swift names it (give the target
    /// when one client talks to several servers through a load balancer, or when the peer is
    /// not known before the first connection). An attempt whose status is one of
    /// ``failureCodes`` counts as a failure, any other answer as a success, a cancellation as
    /// nothing (unless the call's deadline had passed); see `CircuitBreakerPolicy` for
    /// when a breaker opens and closes (its `failureStatuses`, HTTP codes, do not apply).
    ///
    /// While the breaker is open a call is refused before anything is sent: the interceptor
    /// throws an `RPCError` `unavailable` whose `cause` is the `CircuitOpenError`,
    /// which ``GRPCNetworker`` reports as a ``StrataCore/StrataError`` of kind
    /// `StrataError.Kind.circuitOpen` with that error as its
    /// `StrataError.underlying`; ``GRPCRetryInterceptor`` and grpc-swift's retry
    /// executor do not retry it. Place it after the retry interceptor (inner) to count every
    /// attempt. A connection that cannot be made fails in the transport before interceptors
    /// run, so it is not counted.
    ///
    /// State changes are logged (opening at warning level) and recorded on the call
    /// (``GRPCResponse/circuitTransitions``, `StrataError.circuitTransitions`). Copies
    /// share their breakers.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCCircuitBreakerInterceptor: ClientInterceptor {
        /// The status codes that count as the server failing unless told otherwise.
        public static var defaultFailureCodes: Set<RPCError.Code> {
            [.unavailable, .deadlineExceeded, .internalError, .unknown, .resourceExhausted]
        }

        /// The rules it follows.
        public let policy: CircuitBreakerPolicy
        /// The target every call is counted against; `nil` for the connection's remote peer.
        public let target: String?
        /// The status codes that count as a failure of the server.
        public let failureCodes: Set<RPCError.Code>
        private let breakers: CircuitBreakers

        /// Creates the interceptor, with every target's breaker closed.
        /// - Parameters:
        ///   - policy: when a breaker opens and for how long.
        ///   - target: the server's name (`host:port`) for every call; `nil` for the
        ///     connection's remote peer.
        ///   - failureCodes: the status codes that count as a failure.
        public init(
            policy: CircuitBreakerPolicy = CircuitBreakerPolicy(),
            target: String? = nil,
            failureCodes: Set<RPCError.Code> = defaultFailureCodes
        ) {
            self.policy = policy
            self.target = target
            self.failureCodes = failureCodes
            self.breakers = CircuitBreakers(policy: policy)
        }

        /// Sends the attempt unless its target's breaker is open, and counts its outcome.
        /// - Throws: an `RPCError` `unavailable` caused by a `CircuitOpenError` when the
        ///   breaker is open.
        public func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            let callContext = GRPCCallScope.forAttempt(request: request.metadata).context
            let host = CircuitHost(scheme: "grpc", authority: target ?? context.remotePeer)
            let call: CircuitCall
            do {
                call = try breakers.admit(host, context: callContext)
            } catch {
                throw RPCError(
                    code: .unavailable, message: error.description,
                    metadata: GRPCMetadataKeys.pushback([:], wait: nil), cause: error)
            }
            let response: StreamingClientResponse<Output>
            do {
                response = try await next(request, context)
            } catch {
                let code = (error as? RPCError)?.code
                let outcome: CircuitOutcome =
                    code == .cancelled || StrataError.isCancellation(error)
                    ? .cancellation(deadline: callContext.deadline)
                    : code.map { failureCodes.contains($0) ? .failure : .success } ?? .failure
                breakers.finish(host, call, outcome, context: callContext)
                throw error
            }
            let outcome: CircuitOutcome
            switch response.accepted {
            case .success:
                outcome = .success
            case .failure(let error) where error.code == .cancelled:
                outcome = .cancellation(deadline: callContext.deadline)
            case .failure(let error):
                outcome = failureCodes.contains(error.code) ? .failure : .success
            }
            breakers.finish(host, call, outcome, context: callContext)
            return response
        }
    }
#endif
