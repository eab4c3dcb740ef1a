import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import HTTPTypes
import InMemoryTracing
import MetricsTestKit
import Strata
import StrataDemo
import StrataGRPC
import StrataGRPCDemo
import StrataTestSupport
import Testing
import Tracing

/// ``GRPCTelemetryInterceptor`` against the in-process gRPC demo server, with an
/// `InMemoryTracer` and `TestMetrics` of its own: exact span names, kinds, attributes,
/// statuses and parents, the propagation fields each attempt carried, and the exact
/// dimensions of each duration recorded.
@Suite("GRPCTelemetryInterceptor", .isTimed)
struct GRPCTelemetryTests {
    /// The attributes the conventions name, as text, for exact comparison.
    static func attributes(_ span: FinishedInMemorySpan) -> [String: String] {
        var result: [String: String] = [:]
        for name in [
            "rpc.system.name", "rpc.method", "server.address", "server.port", "rpc.response.status_code",
            "error.type",
        ] {
            switch span.attributes[name]?.toSpanAttribute() {
            case .string(let value): result[name] = value
            case .int64(let value): result[name] = "int \(value)"
            case let other?: result[name] = "\(other)"
            case nil: break
            }
        }
        return result
    }

    /// What a test sees: the tracer, the metrics, the metadata each attempt went out with,
    /// and a networker whose telemetry comes last, after the retries.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    static func withNetworker(
        _ body: (GRPCNetworker, _ port: Int, InMemoryTracer, TestMetrics, MetadataLog) async throws -> Void
    ) async throws {
        let tracer = InMemoryTracer()
        let metrics = TestMetrics()
        let sent = MetadataLog()
        let getUser = Strata_Demo_V1_UserService.Method.GetUser.descriptor
        let interceptors =
            .resilient(retry: RetryPolicy(initialBackoff: .milliseconds(5)), idempotentMethods: [getUser])
            + [GRPCTelemetryInterceptor(tracer: tracer, metrics: metrics), sent]
        try await withDemo(serving: FaultService(), interceptors: interceptors) { networker, port in
            try await body(networker, port, tracer, metrics, sent)
        }
    }

    @Test("Each attempt of a retried call gets a span and a duration, with its status, under the caller's span")
    func retriedUnaryCall() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await Self.withNetworker { networker, port, tracer, metrics, sent in
            var request = try RequestDescription(
                route: GRPCRoute(Strata_Demo_V1_UserService.Method.GetUser.descriptor),
                message: Strata_Demo_V1_GetUserRequest.with { $0.id = 1 })
            request.headers[HTTPField.Name("x-demo-flaky")!] = "telemetry"
            let parent = tracer.startSpan("caller")
            let user = try await ServiceContext.withValue(parent.context) {
                try await networker.send(GRPCEndpoint(request, decoding: User.self))
            }
            parent.end()

            #expect(user.name == "Ann")
            let spans = tracer.finishedSpans.filter { $0.operationName != "caller" }
            let method = "strata.demo.v1.UserService/GetUser"
            #expect(spans.map(\.operationName) == [method, method, method])
            #expect(spans.map(\.kind) == [.client, .client, .client])
            #expect(spans.map(\.status?.code) == [.error, .error, nil])
            let caller = try #require(tracer.finishedSpans.first { $0.operationName == "caller" })
            #expect(spans.map(\.parentSpanID) == [caller.spanID, caller.spanID, caller.spanID])
            let common = [
                "rpc.system.name": "grpc", "rpc.method": method, "server.address": "127.0.0.1",
                "server.port": "int \(port)",
            ]
            let failed = common.merging(["rpc.response.status_code": "UNAVAILABLE", "error.type": "UNAVAILABLE"]) {
                $1
            }
            #expect(
                spans.map(Self.attributes)
                    == [failed, failed, common.merging(["rpc.response.status_code": "OK"]) { $1 }])
            // Each attempt carried its own span's context to the server.
            #expect(sent.traceSpanIDs == spans.map(\.spanID))

            let measured = [
                ("rpc.system.name", "grpc"), ("rpc.method", method), ("server.address", "127.0.0.1"),
                ("server.port", "\(port)"),
            ]
            let unavailable = measured + [("rpc.response.status_code", "UNAVAILABLE"), ("error.type", "UNAVAILABLE")]
            #expect(try metrics.expectTimer("rpc.client.call.duration", unavailable).values.count == 2)
            let ok = measured + [("rpc.response.status_code", "OK")]
            #expect(try metrics.expectTimer("rpc.client.call.duration", ok).values.count == 1)
        }
    }

    @Test("A server stream's span ends with its status: OK after its last message, NOT_FOUND, CANCELLED when dropped")
    func serverStreams() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await Self.withNetworker { networker, _, tracer, _, _ in
            func statuses() -> [String?] {
                tracer.finishedSpans.map { Self.attributes($0)["rpc.response.status_code"] }
            }
            var read = 0
            for try await _ in networker.stream(try photos(of: 4)) { read += 1 }
            #expect(read == 3)
            #expect(statuses() == ["OK"])

            await #expect(throws: StrataError.self) {
                for try await _ in networker.stream(try photos(of: 99)) {}
            }
            #expect(statuses() == ["OK", "NOT_FOUND"])

            // The reader stops after the first photo and drops the stream.
            for try await _ in networker.stream(try photos(of: 4)) { break }
            try await waitUntil { tracer.finishedSpans.count == 3 }
            #expect(statuses() == ["OK", "NOT_FOUND", "CANCELLED"])
            #expect(tracer.activeSpans.isEmpty)
        }
    }

    @Test("With no backend bootstrapped, the interceptor only passes the call on: no span, no propagation field")
    func offByDefault() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let sent = MetadataLog()
        try await withDemo(serving: FaultService(), interceptors: [GRPCTelemetryInterceptor(), sent]) { networker, _ in
            let request = try RequestDescription(
                route: GRPCRoute(Strata_Demo_V1_UserService.Method.GetUser.descriptor),
                message: Strata_Demo_V1_GetUserRequest.with { $0.id = 1 })
            #expect(try await networker.send(GRPCEndpoint(request, decoding: User.self)).name == "Ann")
        }
        #expect(sent.keys == [[]])
    }
}

/// An interceptor placed after the telemetry: keeps the propagation fields each attempt
/// went out with.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class MetadataLog: ClientInterceptor {
    private let sent = Locked<[Metadata]>([])

    /// The `in-memory-span-id` each attempt carried.
    var traceSpanIDs: [String?] {
        sent.withLock { $0.map { $0[stringValues: InMemoryTracer.spanIDKey].first(where: { _ in true }) } }
    }

    /// The tracer's keys each attempt carried.
    var keys: [[String]] {
        sent.withLock { all in
            all.map { metadata in
                [InMemoryTracer.traceIDKey, InMemoryTracer.spanIDKey].filter {
                    metadata[stringValues: $0].first(where: { _ in true }) != nil
                }
            }
        }
    }

    func intercept<Input: Sendable, Output: Sendable>(
        request: StreamingClientRequest<Input>,
        context: ClientContext,
        next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
    ) async throws -> StreamingClientResponse<Output> {
        sent.withLock { $0.append(request.metadata) }
        return try await next(request, context)
    }
}
