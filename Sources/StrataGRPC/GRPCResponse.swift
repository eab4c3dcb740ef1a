#if GRPC
    import GRPCCore
    import Strata

    /// A parsed response message together with what came with it: the gRPC counterpart of
    /// `EndpointResponse`.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCResponse<Value> {
        /// The parsed value.
        public let value: Value
        /// The route the call went to.
        public let route: GRPCRoute
        /// The metadata the server sent before the message.
        public let metadata: Metadata
        /// The metadata the server sent with the status, after the message.
        public let trailingMetadata: Metadata
        /// How long the call took, from sending to the parsed value.
        public let duration: Duration
        /// What the call's policies recorded (see `MiddlewareContext.record(_:for:)`):
        /// ``retry``, ``circuitTransitions``, ``credentialRefreshes``, and the records of
        /// interceptors of the app's own.
        public let records: CallValues

        /// How many attempts the call made and why it stopped, when the client has a
        /// ``GRPCRetryInterceptor``.
        public var retry: RetrySummary? { records[RetrySummaryKey.self] }
        /// The circuit-breaker changes this call caused, in order; `nil` when there were none.
        public var circuitTransitions: [CircuitTransition]? { records[CircuitTransitionsKey.self] }
        /// How many credential refreshes this call started; `nil` for none.
        public var credentialRefreshes: Int? { records[CredentialRefreshesKey.self] }
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    extension GRPCResponse: Sendable where Value: Sendable {}
#endif
