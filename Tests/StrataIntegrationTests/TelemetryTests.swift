import Foundation
import Hummingbird
import InMemoryTracing
import Logging
import MetricsTestKit
import NIOConcurrencyHelpers
import NIOCore
import Strata
import StrataObservability
import StrataTestServer
import StrataTestSupport
import Testing
import Tracing

/// ``TelemetryMiddleware`` against the in-process server over both transports, with an
/// `InMemoryTracer` and `TestMetrics` of its own: exact span names, kinds, attributes,
/// statuses, events and parents, the propagation fields the server received, and exact
/// metric dimensions and values.
@Suite("Telemetry")
struct TelemetryTests {
    /// What a test sees: the tracer, the metrics, and a client with the step last.
    struct Setup {
        let tracer = InMemoryTracer()
        let metrics = TestMetrics()

        func networker(over transport: any Transport, retries: Bool = false) -> Networker {
            let telemetry = TelemetryMiddleware(tracer: tracer, metrics: metrics)
            let retry = RetryMiddleware(policy: RetryPolicy(initialBackoff: .milliseconds(10)))
            return Networker(transport: transport, middleware: retries ? [retry, telemetry] : [telemetry])
        }
    }

    /// A route that answers `503` to its first two calls, then `200`.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func withFlakyServer<T>(_ body: (TestServer) async throws -> T) async throws -> T {
        let calls = NIOLockedValueBox(0)
        return try await TestServer.with(configure: { router in
            router.get("flaky") { _, _ in
                let call = calls.withLockedValue {
                    $0 += 1
                    return $0
                }
                return Response(status: call <= 2 ? .serviceUnavailable : .ok)
            }
            router.get("down") { _, _ in Response(status: .serviceUnavailable) }
            router.get("cached") { _, _ in
                Response(
                    status: .ok, headers: [.cacheControl: "max-age=60"],
                    body: .init(byteBuffer: ByteBuffer(string: "kept")))
            }
        }) { try await body($0) }
    }

    static func attribute(_ span: FinishedInMemorySpan, _ name: String) -> String? {
        text(span.attributes[name]?.toSpanAttribute())
    }

    /// A string attribute as it is, a number in decimal.
    static func text(_ attribute: SpanAttribute?) -> String? {
        switch attribute {
        case .string(let value): value
        case .int64(let value): String(value)
        case .int32(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): String(value)
        case let other?: "\(other)"
        case nil: nil
        }
    }

    /// The attributes the conventions name, as text, for exact comparison.
    static func attributes(_ span: FinishedInMemorySpan) -> [String: String] {
        var result: [String: String] = [:]
        for name in [
            "http.request.method", "http.request.method_original", "server.address", "server.port", "url.full",
            "http.request.resend_count", "http.response.status_code", "error.type", "network.protocol.version",
        ] {
            result[name] = attribute(span, name)
        }
        return result
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aSuccessIsOneClientSpanWithTheConventionsAttributes(_ kind: TransportKind) async throws {
        let setup = Setup()
        try await TestServer.with { server in
            try await kind.with { transport in
                let port = try #require(server.baseURL.port)
                let endpoint = Endpoint<Data>(
                    RequestDescription(route: server.baseURL.absoluteString + "/echo/items?token=secret&page=2"))
                let response = try await setup.networker(over: transport).response(for: endpoint)
                let echo = try JSONDecoder().decode(EchoReply.self, from: response.body)
                let span = try #require(setup.tracer.finishedSpans.only)
                #expect(span.operationName == "GET")
                #expect(span.kind == .client)
                #expect(span.status == nil)
                // AsyncHTTPClient reports the HTTP version it spoke; URLSession does not.
                let version = kind == .asyncHTTPClient ? "1.1" : nil
                var expected = [
                    "http.request.method": "GET", "server.address": "127.0.0.1", "server.port": "\(port)",
                    "url.full": "http://127.0.0.1:\(port)/echo/items?token=REDACTED&page=REDACTED",
                    "http.response.status_code": "200",
                ]
                expected["network.protocol.version"] = version
                #expect(Self.attributes(span) == expected)
                // The tracer's propagation fields reached the server.
                #expect(echo.headers[InMemoryTracer.traceIDKey] == span.traceID)
                #expect(echo.headers[InMemoryTracer.spanIDKey] == span.spanID)
                let dimensions =
                    [
                        ("http.request.method", "GET"), ("server.address", "127.0.0.1"), ("server.port", "\(port)"),
                        ("http.response.status_code", "200"),
                    ] + (version.map { [("network.protocol.version", $0)] } ?? [])
                #expect(try setup.metrics.expectTimer("http.client.request.duration", dimensions).values.count == 1)
                let bodySize = try setup.metrics.expectRecorder("http.client.response.body.size", dimensions)
                #expect(bodySize.values == [Double(response.body.count)])
                #expect(response.body.count > 100)
                let active = try setup.metrics.expectMeter(
                    "http.client.active_requests",
                    [("http.request.method", "GET"), ("server.address", "127.0.0.1"), ("server.port", "\(port)")])
                #expect(active.values == [1, 0])
            }
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func aNotFoundIsAnErrorSpanWithItsStatusAsTheErrorType() async throws {
        let setup = Setup()
        try await TestServer.with { server in
            try await TransportKind.asyncHTTPClient.with { transport in
                let port = try #require(server.baseURL.port)
                let endpoint = Endpoint<Data>(RequestDescription(route: server.baseURL.absoluteString + "/status/404"))
                await #expect(throws: StrataError.self) {
                    _ = try await setup.networker(over: transport).send(endpoint)
                }
                let span = try #require(setup.tracer.finishedSpans.only)
                #expect(span.status?.code == .error)
                #expect(Self.attribute(span, "http.response.status_code") == "404")
                #expect(Self.attribute(span, "error.type") == "404")
                let duration = try setup.metrics.expectTimer(
                    "http.client.request.duration",
                    [
                        ("http.request.method", "GET"), ("server.address", "127.0.0.1"), ("server.port", "\(port)"),
                        ("http.response.status_code", "404"), ("error.type", "404"),
                        ("network.protocol.version", "1.1"),
                    ])
                #expect(duration.values.count == 1)
                #expect(
                    try setup.metrics.expectRecorder("http.client.response.body.size", duration.dimensions).values == [
                        10
                    ])
            }
        }
    }

    @Test func aTransportFailureNamesItsKind() async throws {
        let setup = Setup()
        let authority = try await closedPortAuthority()
        try await TransportKind.asyncHTTPClient.with { transport in
            let endpoint = Endpoint<Data>(RequestDescription(route: "http://\(authority)/"))
            await #expect(throws: StrataError.self) { _ = try await setup.networker(over: transport).send(endpoint) }
        }
        let span = try #require(setup.tracer.finishedSpans.only)
        #expect(span.status?.code == .error)
        #expect(Self.attribute(span, "error.type") == "connection_refused")
        #expect(Self.attribute(span, "http.response.status_code") == nil)
        #expect(span.errors.count == 1)
    }

    /// Three attempts, three spans: resend counts 0, 1, 2, each resend with its wait.
    @Test(arguments: TransportKind.allCases)
    func aRetriedCallHasASpanPerAttempt(_ kind: TransportKind) async throws {
        let setup = Setup()
        try await Self.withFlakyServer { server in
            try await kind.with { transport in
                let endpoint = Endpoint<Data>(RequestDescription(route: server.baseURL.absoluteString + "/flaky"))
                _ = try await setup.networker(over: transport, retries: true).send(endpoint)
            }
        }
        let spans = setup.tracer.finishedSpans
        #expect(spans.map { Self.attribute($0, "http.request.resend_count") } == [nil, "1", "2"])
        #expect(spans.map { Self.attribute($0, "http.response.status_code") } == ["503", "503", "200"])
        #expect(spans.map { $0.status?.code } == [.error, .error, nil])
        #expect(spans.map { $0.events.map(\.name) } == [[], ["strata.retry.wait"], ["strata.retry.wait"]])
        #expect(Set(spans.map(\.traceID)).count == 3)  // no parent: each attempt starts a trace
    }

    /// A redirect's hop is a span of its own, a resend with the hop's event; both are
    /// children of the caller's span. The endpoint's URL template names the first.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func aRedirectIsASpanPerHopUnderTheCallersSpan() async throws {
        let setup = Setup()
        try await TestServer.with { server in
            try await TransportKind.asyncHTTPClient.with { transport in
                let port = try #require(server.baseURL.port)
                let endpoint = Endpoint<Data>(RequestDescription(route: server.baseURL.absoluteString + "/redirect"))
                    .urlTemplate("/redirect")
                let networker = setup.networker(over: transport)
                let parent = setup.tracer.startSpan("checkout")
                _ = try await ServiceContext.withValue(parent.context) { try await networker.send(endpoint) }
                parent.end()
                let spans = setup.tracer.finishedSpans
                // The template names the call's own span; the hop goes elsewhere.
                #expect(spans.map(\.operationName) == ["GET /redirect", "GET", "checkout"])
                #expect(spans.prefix(2).map { Self.attribute($0, "url.template") } == ["/redirect", nil])
                #expect(spans.prefix(2).map(\.parentSpanID) == [spans[2].spanID, spans[2].spanID])
                #expect(spans.prefix(2).map { Self.attribute($0, "http.response.status_code") } == ["302", "200"])
                #expect(Self.attribute(spans[1], "url.full") == "http://127.0.0.1:\(port)/json/user/1")
                #expect(Self.attribute(spans[1], "http.request.resend_count") == "1")
                #expect(spans[1].events.map(\.name) == ["strata.redirect"])
                #expect(
                    Self.text(spans[1].events.first?.attributes["strata.redirect.from"]?.toSpanAttribute())
                        == "http://127.0.0.1:\(port)/redirect")
            }
        }
    }

    /// Strata's own metrics, read from the calls' records: retries, cache lookups and the
    /// breaker's transitions, with exact counts and dimensions.
    @Test func strataMetricsCountRetriesCacheLookupsAndBreakerChanges() async throws {
        let metrics = TestMetrics()
        try await Self.withFlakyServer { server in
            try await TransportKind.asyncHTTPClient.with { transport in
                var configuration = Networker.Configuration()
                configuration.callObservers = [StrataMetrics(metrics: metrics)]
                let networker = Networker(
                    transport: transport,
                    middleware: [
                        CircuitBreakerMiddleware(policy: CircuitBreakerPolicy(consecutiveFailures: 2)),
                        RetryMiddleware(policy: RetryPolicy(initialBackoff: .milliseconds(10))),
                        CacheMiddleware(store: MemoryCacheStore()),
                    ],
                    configuration: configuration)
                let base = server.baseURL.absoluteString
                _ = try await networker.send(Endpoint<Data>(RequestDescription(route: base + "/flaky")))
                _ = try await networker.send(Endpoint<Data>(RequestDescription(route: base + "/flaky")))
                let cached = Endpoint<Data>(RequestDescription(route: base + "/cached"))
                _ = try await networker.send(cached)
                _ = try await networker.send(cached)
                let down = Endpoint<Data>(RequestDescription(route: base + "/down")).retry(.never)
                for _ in 0..<2 { _ = try? await networker.send(down) }
                #expect(
                    try metrics.expectCounter(
                        "strata.circuit.transitions",
                        [
                            (
                                "server.address",
                                try #require(server.baseURL.host) + ":\(try #require(server.baseURL.port))"
                            ),
                            ("strata.circuit.state", "open"),
                        ]
                    ).values == [1])
            }
        }
        #expect(try metrics.expectCounter("strata.client.calls", [("outcome", "unacceptableStatus")]).values == [1, 1])
        #expect(try metrics.expectCounter("strata.client.calls", [("outcome", "success")]).values == [1, 1, 1, 1])
        #expect(try metrics.expectRecorder("strata.retry.attempts").values == [3])
        #expect(
            try metrics.expectCounter("strata.retry.stops", [("strata.retry.stop_reason", "notRetryable")]).values
                == [1])
        #expect(
            try metrics.expectCounter(
                "strata.cache.lookups", [("strata.cache.source", "network"), ("strata.cache.stale", "false")]
            ).values == [1, 1, 1, 1, 1])  // two /flaky, the first /cached, two /down
        #expect(
            try metrics.expectCounter(
                "strata.cache.lookups", [("strata.cache.source", "cache"), ("strata.cache.stale", "false")]
            ).values == [1])
    }

    /// Coalesced calls are counted: one sent, the others joined it.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func strataMetricsCountCoalescedCalls() async throws {
        let metrics = TestMetrics()
        try await TestServer.with(configure: { router in
            router.get("slow") { _, _ in
                try await Task.sleep(for: .milliseconds(300))
                return "slow"
            }
        }) { server in
            try await TransportKind.asyncHTTPClient.with { transport in
                var configuration = Networker.Configuration()
                configuration.callObservers = [StrataMetrics(metrics: metrics)]
                let networker = Networker(
                    transport: transport, middleware: [CoalescingMiddleware()], configuration: configuration)
                let endpoint = Endpoint<String>(RequestDescription(route: server.baseURL.absoluteString + "/slow"))
                let replies = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<5 { group.addTask { try await networker.send(endpoint) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(replies == Array(repeating: "slow", count: 5))
            }
        }
        #expect(try metrics.expectCounter("strata.coalescing.calls", [("strata.coalescing", "sent")]).values == [1])
        #expect(
            try metrics.expectCounter("strata.coalescing.calls", [("strata.coalescing", "joined")]).values
                == [1, 1, 1, 1])
    }

    /// Logging, spans and metrics read the same attempt events: a call retried twice logs
    /// three attempts with the very waits its spans carry, the HTTP version the spans and
    /// the metrics have, and each body's end with the bytes the metrics count.
    @Test func logLinesSpansAndMetricsTellTheSameAttempts() async throws {
        let setup = Setup()
        let log = EventLog()
        let logger = Logger(label: "attempts") { _ in CapturingLogHandler(log: log) }
        let retry = RetryMiddleware(policy: RetryPolicy(initialBackoff: .milliseconds(10)))
        try await Self.withFlakyServer { server in
            try await TransportKind.asyncHTTPClient.with { transport in
                let networker = Networker(
                    transport: transport,
                    middleware: [
                        retry, LoggingMiddleware(logger: logger, logsHeaders: false),
                        TelemetryMiddleware(tracer: setup.tracer, metrics: setup.metrics),
                    ])
                let endpoint = Endpoint<Data>(RequestDescription(route: server.baseURL.absoluteString + "/flaky"))
                _ = try await networker.send(endpoint)
            }
        }
        let spans = setup.tracer.finishedSpans
        let logged = log.all
        let starts = logged.filter { $0.hasPrefix("info → GET ") }
        #expect(starts.map { $0.contains("strata.attempt=1") } == [true, false, false])
        #expect(starts.map { $0.contains("strata.attempt=2") } == [false, true, false])
        let waits = try spans.dropFirst().map { span in
            let seconds = try #require(span.events.first?.attributes["strata.retry.wait_seconds"]?.toSpanAttribute())
            guard case .double(let value) = seconds else { throw CancellationError() }
            return String(format: "strata.retry_wait=%.1f ms", value * 1000)
        }
        #expect(starts.dropFirst().map { $0.components(separatedBy: " ").suffix(2).joined(separator: " ") } == waits)
        #expect(!starts[0].contains("strata.retry_wait"))
        let heads = logged.filter { $0.hasPrefix("info ← ") }
        #expect(heads.map { $0.contains(" network.protocol.version=1.1 ") } == [true, true, true])
        #expect(spans.map { Self.attribute($0, "network.protocol.version") } == ["1.1", "1.1", "1.1"])
        let ends = logged.filter { $0.hasPrefix("debug ✓ ") }.map {
            $0.split(separator: " ").prefix(3).joined(separator: " ")
        }
        #expect(ends == ["debug ✓ 503", "debug ✓ 503", "debug ✓ 200"])
        #expect(logged.filter { $0.hasPrefix("debug ✓ ") }.allSatisfy { $0.contains(": 0 bytes in ") })
    }

    @Test func urlRedactionKeepsNamedValuesAndDropsUserInfo() {
        let policy = URLRedaction(keepingQueryValuesOf: ["page"])
        #expect(
            policy.full(scheme: "https", authority: "ann:pw@api.test:8443", path: "/a?page=2&token=x&flag")
                == "https://api.test:8443/a?page=2&token=REDACTED&flag")
        #expect(URLRedaction.userInfoOnly.full(scheme: "http", authority: "u@h", path: "/?q=1") == "http://h/?q=1")
    }
}

extension Array {
    /// The only element, or `nil` when there are none or several.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
