#if Observability
    import Foundation
    import HTTPTypes
    import Instrumentation
    import Metrics
    import Strata
    import Tracing

    /// Traces and measures each attempt of a call as the OpenTelemetry HTTP client
    /// conventions describe, through swift-distributed-tracing and swift-metrics: with no
    /// tracer or metrics backend bootstrapped (the no-op tracer and metrics handler), the step
    /// only passes the request on.
    ///
    /// ```swift
    /// let networker = Networker(
    ///     transport: transport,
    ///     middleware: .resilient(perAttempt: [TelemetryMiddleware()]))  // last: one span per attempt
    /// ```
    ///
    /// Place it last, closest to the transport, so that each attempt — a retry, a redirect's
    /// hop — passes through it and gets a span of its own:
    /// - **Spans** of kind client, named after the method (`HTTP` for one the conventions do
    ///   not know) and the endpoint's ``StrataCore/Endpoint/urlTemplate`` when it gives one (`GET /users/{id}`,
    ///   also in `url.template`), children of `ServiceContext.current`, with `http.request.method` (and
    ///   `http.request.method_original`), `server.address`, `server.port`, `url.full` (user
    ///   info removed, query values redacted by ``redaction``),
    ///   `http.request.resend_count` on a resend, `http.response.status_code`,
    ///   `network.protocol.version` (where the transport reports it: AsyncHTTPClient does)
    ///   and `error.type`; the status is an error for a 4xx, a 5xx or a failure. A resend carries
    ///   an event: `strata.retry.wait` (with `strata.retry.wait_seconds`) after a retry's
    ///   backoff, `strata.redirect` (with the status and the URL it came from) for a hop. The
    ///   span ends when the response body has been read, failed or been dropped. The
    ///   tracer's propagation fields (W3C `traceparent` and `tracestate`, with swift-otel)
    ///   go into the request.
    /// - **Metrics**: `http.client.request.duration` (a timer, in seconds, from the attempt's
    ///   start to the end of its body; ``durationBuckets`` are the conventions' advisory
    ///   buckets for a backend that asks), `http.client.active_requests`,
    ///   `http.client.request.body.size` and `http.client.response.body.size` (bytes), with
    ///   the span's method, `server.address`, `server.port`, and the status,
    ///   `network.protocol.version` and `error.type` where the conventions put them.
    ///
    /// Spans, metrics and `LoggingMiddleware`'s lines read the same attempt events
    /// (`AttemptStart`, `AttemptListener`).
    public struct TelemetryMiddleware: Middleware {
        /// The signals the step emits.
        public struct Signals: OptionSet, Sendable, Hashable {
            /// The option set's bits.
            public let rawValue: Int
            /// Signals from their bits.
            public init(rawValue: Int) { self.rawValue = rawValue }
            /// A span per attempt.
            public static let tracing = Signals(rawValue: 1)
            /// The HTTP client metrics.
            public static let metrics = Signals(rawValue: 2)
            /// Both.
            public static let all: Signals = [.tracing, .metrics]

            /// The tracer and the metrics factory these signals use: `tracer` and `metrics` when
            /// given, else the bootstrapped ones (read now); `nil` for a signal that is off or
            /// has no backend (the no-op tracer or metrics handler). Both `nil`: a step only
            /// passes the call on, which makes telemetry that is off cost nothing.
            package func backends(tracer: (any Tracer)?, metrics: (any MetricsFactory)?) -> (
                tracer: (any Tracer)?, metrics: (any MetricsFactory)?
            ) {
                let tracer = contains(.tracing) ? tracer ?? InstrumentationSystem.tracer : nil
                let factory = contains(.metrics) ? metrics ?? MetricsSystem.factory : nil
                return (
                    tracer.flatMap { $0 is NoOpTracer ? nil : $0 },
                    factory.flatMap { $0 is NOOPMetricsHandler ? nil : $0 }
                )
            }
        }

        /// The advisory histogram buckets of `http.client.request.duration`, in seconds.
        public static let durationBuckets: [Double] = [
            0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
        ]

        /// What the step emits.
        public let signals: Signals
        /// How `url.full` shows the URL.
        public let redaction: URLRedaction
        /// The tracer given to ``init(signals:redaction:tracer:metrics:)``, else `nil` for the
        /// one bootstrapped in `InstrumentationSystem` (read on each attempt).
        public let tracer: (any Tracer)?
        /// The metrics factory given to ``init(signals:redaction:tracer:metrics:)``, else `nil`
        /// for the one bootstrapped in `MetricsSystem` (read on each attempt).
        public let metrics: (any MetricsFactory)?

        /// Creates the step.
        /// - Parameters:
        ///   - signals: spans, metrics or both (the default).
        ///   - redaction: how `url.full` shows the URL; by default every query value is redacted.
        ///   - tracer: a tracer of its own (a test's `InMemoryTracer`); by default the
        ///     bootstrapped one.
        ///   - metrics: a metrics factory of its own (a test's `TestMetrics`); by default the
        ///     bootstrapped one.
        public init(
            signals: Signals = .all, redaction: URLRedaction = .queryValues, tracer: (any Tracer)? = nil,
            metrics: (any MetricsFactory)? = nil
        ) {
            self.signals = signals
            self.redaction = redaction
            self.tracer = tracer
            self.metrics = metrics
        }

        /// Sends `request` on inside a span, measured; see the type's documentation.
        public func intercept(
            _ request: HTTPRequest,
            body: MessageBody?,
            context: MiddlewareContext,
            next: MiddlewareNext
        ) async throws -> (HTTPResponse, MessageBody?) {
            let (tracer, factory) = signals.backends(tracer: self.tracer, metrics: metrics)
            guard tracer != nil || factory != nil else { return try await next(request, body, context) }
            var start = AttemptStart(request, body: body, context: context)
            let attempt = ClientAttempt(start, context: context, redaction: redaction)
            var listeners: [any AttemptListener] = []
            var span: (any Span)?
            if let tracer {
                let started = tracer.startSpan(attempt.spanName, context: .current ?? .topLevel, ofKind: .client)
                Self.describe(start, attempt, on: started)
                tracer.inject(started.context, into: &start.request.headerFields, using: HTTPFieldsInjector())
                listeners.append(AttemptSpan(span: started))
                span = started
            }
            if let factory {
                listeners.append(AttemptMetrics(attempt: attempt, start: start, factory: factory))
            }
            let observed = start
            return try await ServiceContext.withValue(span?.context ?? .current) {
                try await context.observeAttempt(observed, body: body, listeners: listeners, next: next)
            }
        }

        /// `true`: the step waits for nothing but `next`.
        public var boundsItsWaits: Bool { true }

        /// Puts the attempt's request attributes and its resend event on `span`.
        private static func describe(_ start: AttemptStart, _ attempt: ClientAttempt, on span: any Span) {
            span.updateAttributes { attributes in
                attributes["http.request.method"] = attempt.method
                attributes["http.request.method_original"] = attempt.originalMethod
                attributes["server.address"] = attempt.serverAddress
                attributes["server.port"] = attempt.serverPort
                attributes["url.full"] = attempt.fullURL
                attributes["url.template"] = attempt.urlTemplate
                if attempt.resendCount > 0 { attributes["http.request.resend_count"] = attempt.resendCount }
            }
            if let wait = start.retryWait {
                span.addEvent(
                    SpanEvent(
                        name: "strata.retry.wait",
                        attributes: ["strata.retry.wait_seconds": .double(wait / .seconds(1))]))
            }
            if let hop = start.redirect {
                span.addEvent(
                    SpanEvent(
                        name: "strata.redirect",
                        attributes: [
                            "http.response.status_code": .int64(Int64(hop.status.code)),
                            "strata.redirect.from": .string(hop.from),
                        ]))
            }
        }
    }
#endif
