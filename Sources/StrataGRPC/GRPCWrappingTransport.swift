#if GRPC
    import GRPCCore

    /// A gRPC client transport that wraps another and hands it everything but its streams:
    /// a conformer writes only `withStream(descriptor:options:_:)`, around its base's
    /// (``GRPCAttemptTimeoutTransport`` bounds an attempt's wait, `StrataTesting`'s
    /// `HARRecordingGRPCTransport` records it).
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public protocol GRPCWrappingTransport: ClientTransport where Bytes == Base.Bytes {
        /// The wrapped transport's type.
        associatedtype Base: ClientTransport
        /// The transport that carries the calls.
        var base: Base { get }
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    extension GRPCWrappingTransport {
        /// The wrapped transport's retry throttle.
        public var retryThrottle: RetryThrottle? { base.retryThrottle }

        /// Connects the wrapped transport.
        public func connect() async throws {
            try await base.connect()
        }

        /// Shuts the wrapped transport down gracefully.
        public func beginGracefulShutdown() {
            base.beginGracefulShutdown()
        }

        /// The wrapped transport's configuration for `descriptor`.
        public func config(forMethod descriptor: MethodDescriptor) -> MethodConfig? {
            base.config(forMethod: descriptor)
        }
    }
#endif
