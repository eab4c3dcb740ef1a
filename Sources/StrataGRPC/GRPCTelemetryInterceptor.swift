#if GRPC && Observability
    import GRPCCore
    import Instrumentation
    import Metrics
    import Strata
    import StrataObservability
    import Tracing

    /// Traces and measures each attempt of a gRPC call as the OpenTelemetry RPC conventions
    /// describe, through swift-distributed-tracing and swift-metrics: the gRPC counterpart of
    /// `TelemetryMiddleware`, with the same switches, and with no tracer or metrics backend
    /// bootstrapped it only passes the call on.
    ///
    /// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests makes these calls) -->
    /// ```swift
    /// let networker = GRPCNetworker(transport: transport, interceptors: .resilient() + [GRPCTelemetryInterceptor()])
    /// ```
    ///
    /// Place it last, so that each attempt the retry interceptor makes gets a span of its own:
    /// - **Spans** of kind client, named after the method (`strata.demo.v1.UserService/GetUser`),
    ///   children of `ServiceContext.current`, with `rpc.system.name` (`grpc`), `rpc.method`,
    ///   `server.address` and `server.port` (the peer the attempt went to),
    ///   `rpc.response.status_code` (`OK`, `UNAVAILABLE`…) and, for any status but `OK`,
    ///   `error.type` (the same code) and an error status. The span ends with the call's
    ///   status: when a response's last message and trailers were read, when the call
    ///   failed, or when the response was dropped unread (`CANCELLED`). The tracer's
    ///   propagation fields (W3C `traceparent` and `tracestate`, with swift-otel) go into
    ///   the call's metadata.
    /// - **Metrics**: `rpc.client.call.duration` (a timer, in seconds, from the attempt's start
    ///   to its status), with the span's `rpc.system.name`, `rpc.method`, `server.address`,
    ///   `server.port`, `rpc.response.status_code` and `error.type`.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCTelemetryInterceptor: ClientInterceptor {
        /// What the interceptor emits.
        public let signals: TelemetryMiddleware.Signals
        /// The tracer given to ``init(signals:tracer:metrics:)``, else `nil` for the one
        /// bootstrapped in `InstrumentationSystem` (read on each attempt).
        public let tracer: (any Tracer)?
        /// The metrics factory given to ``init(signals:tracer:metrics:)``, else `nil` for the
        /// one bootstrapped in `MetricsSystem` (read on each attempt).
        public let metrics: (any MetricsFactory)?

        /// Creates the interceptor.
        /// - Parameters:
        ///   - signals: spans, metrics or both (the default).
        ///   - tracer: a tracer of its own (a test's `InMemoryTracer`); by default the
        ///     bootstrapped one.
        ///   - metrics: a metrics factory of its own (a test's `TestMetrics`); by default the
        ///     bootstrapped one.
        public init(
            signals: TelemetryMiddleware.Signals = .all, tracer: (any Tracer)? = nil,
            metrics: (any MetricsFactory)? = nil
        ) {
            self.signals = signals
            self.tracer = tracer
            self.metrics = metrics
        }

        /// Sends the attempt on inside a span, measured; see the type's documentation.
        public func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            let (tracer, factory) = signals.backends(tracer: self.tracer, metrics: metrics)
            guard tracer != nil || factory != nil else { return try await next(request, context) }
            let attempt = GRPCTelemetryAttempt(context)
            var request = request
            var span: (any Span)?
            if let tracer {
                let started = tracer.startSpan(attempt.method, context: .current ?? .topLevel, ofKind: .client)
                started.updateAttributes { attributes in
                    attributes["rpc.system.name"] = "grpc"
                    attributes["rpc.method"] = attempt.method
                    attributes["server.address"] = attempt.serverAddress
                    attributes["server.port"] = attempt.serverPort
                }
                tracer.inject(started.context, into: &request.metadata, using: GRPCMetadataInjector())
                span = started
            }
            let end = GRPCTelemetryEnd(attempt, span: span, metrics: factory)
            do {
                var response = try await ServiceContext.withValue(span?.context ?? .current) {
                    try await next(request, context)
                }
                switch response.accepted {
                case .success(var contents):
                    contents.bodyParts = RPCAsyncSequence(
                        wrapping: CountedBodyParts(base: contents.bodyParts, counts: GRPCMessageCounts()) {
                            end.end(with: $1)
                        })
                    response.accepted = .success(contents)
                case .failure(let error):
                    end.end(with: error)
                }
                return response
            } catch {
                end.end(with: error)
                throw error
            }
        }
    }

    /// What the OpenTelemetry RPC conventions say about one gRPC attempt, worked out once for
    /// its span and its metric.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    struct GRPCTelemetryAttempt: Sendable {
        /// The gRPC status codes by number, as the conventions spell them.
        static let statusNames = [
            "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
            "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
            "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
        ]

        /// `package.Service/Method`.
        let method: String
        let serverAddress: String?
        let serverPort: Int?
        let start = ContinuousClock.now

        /// The attempt of `context`: its method, and the peer it went to (the transport
        /// describes it as `ipv4:127.0.0.1:50051`, `ipv6:[::1]:50051`, `unix:/path`…).
        init(_ context: ClientContext) {
            method = context.descriptor.fullyQualifiedMethod
            let peer = context.remotePeer
            let colon = peer.firstIndex(of: ":")
            let address = colon.map { String(peer[peer.index(after: $0)...]) } ?? peer
            switch colon.map({ peer[..<$0] }) {
            case "ipv4", "ipv6": (serverAddress, serverPort) = ClientAttempt.split(address)
            case "unix": (serverAddress, serverPort) = (address, nil)
            default: (serverAddress, serverPort) = (peer.isEmpty ? nil : peer, nil)
            }
        }

        /// The attributes every signal of the attempt carries, as text.
        var dimensions: [(String, String)] {
            var dimensions = [("rpc.system.name", "grpc"), ("rpc.method", method)]
            if let serverAddress { dimensions.append(("server.address", serverAddress)) }
            if let serverPort { dimensions.append(("server.port", String(serverPort))) }
            return dimensions
        }

        /// The status an attempt ended with: `OK` without an error, the code of an `RPCError`,
        /// `CANCELLED` for a cancellation, else `UNKNOWN` (what grpc-swift makes of any other
        /// error).
        static func status(of error: (any Error)?) -> String {
            guard let error else { return "OK" }
            if let rpc = error as? RPCError, statusNames.indices.contains(rpc.code.rawValue) {
                return statusNames[rpc.code.rawValue]
            }
            return StrataError.isCancellation(error) ? "CANCELLED" : "UNKNOWN"
        }
    }

    /// One traced attempt's end, told once, whoever comes first: the response's trailers, a
    /// failure, or the deinit of a response dropped unread (`CANCELLED`).
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    final class GRPCTelemetryEnd: Sendable {
        private let attempt: GRPCTelemetryAttempt
        /// The attempt's span, if it is traced.
        private let traced: (any Span)?
        private let metrics: (any MetricsFactory)?
        private let ended = Locked(false)

        init(_ attempt: GRPCTelemetryAttempt, span: (any Span)?, metrics: (any MetricsFactory)?) {
            self.attempt = attempt
            traced = span
            self.metrics = metrics
        }

        deinit {
            end(with: CancellationError())
        }

        /// Ends the span and records the duration, with the status `error` makes (`OK` for
        /// `nil`); only the first end counts.
        func end(with error: (any Error)?) {
            let first = ended.withLock { ended in
                defer { ended = true }
                return !ended
            }
            guard first else { return }
            let status = GRPCTelemetryAttempt.status(of: error)
            if let span = traced {
                span.attributes["rpc.response.status_code"] = status
                if status != "OK" {
                    span.attributes["error.type"] = status
                    span.setStatus(SpanStatus(code: .error))
                }
                if let error { span.recordError(error) }
                span.end()
            }
            if let metrics {
                var dimensions = attempt.dimensions
                dimensions.append(("rpc.response.status_code", status))
                if status != "OK" { dimensions.append(("error.type", status)) }
                Timer(label: "rpc.client.call.duration", dimensions: dimensions, factory: metrics)
                    .recordNanoseconds(Int64(attempt.start.duration(to: .now) / .nanoseconds(1)))
            }
        }
    }

    /// Writes a tracer's propagation fields (`traceparent`, `tracestate`, …) into a call's
    /// metadata.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    struct GRPCMetadataInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout Metadata) {
            carrier.replaceOrAddString(value, forKey: key)
        }
    }
#endif
