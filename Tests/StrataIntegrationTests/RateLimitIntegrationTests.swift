import Foundation
import HTTPTypes
import Hummingbird
import Strata
import StrataTestServer
import StrataTestSupport
import Testing

/// ``RateLimitMiddleware`` against servers on 127.0.0.1 on both transports: the servers
/// note when each request arrives, and the timings are read there.
@Suite("Rate limits against a real server", .isTimed)
struct RateLimitIntegrationTests {
    /// When each request arrived, by path.
    final class Arrivals: Sendable {
        private let log = Locked<[(path: String, at: ContinuousClock.Instant)]>([])
        func note(_ path: String) { log.withLock { $0.append((path, .now)) } }
        func times(_ path: String? = nil) -> [ContinuousClock.Instant] {
            log.withLock { $0.filter { path == nil || $0.path == path }.map(\.at) }
        }
    }

    /// A server whose `/ok` answers `200`, `/busy` a `429` with `Retry-After: 2` the first
    /// time and `200` after, `/quota` a `200` with `RateLimit: limit=5, remaining=0, reset=3`,
    /// and `/pause` the same with `reset=1`.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func withServer(_ body: (_ base: String, _ arrivals: Arrivals) async throws -> Void) async throws {
        let arrivals = Arrivals()
        try await TestServer.with(configure: { router in
            router.get("ok") { _, _ in
                arrivals.note("/ok")
                return "ok"
            }
            router.get("busy") { _, _ in
                arrivals.note("/busy")
                guard arrivals.times("/busy").count == 1 else { return Response(status: .ok) }
                return Response(status: .tooManyRequests, headers: [.retryAfter: "2"])
            }
            router.get("pause") { _, _ in
                arrivals.note("/pause")
                return Response(status: .ok, headers: [HTTPField.Name("RateLimit")!: "limit=5, remaining=0, reset=1"])
            }
            router.get("quota") { _, _ in
                arrivals.note("/quota")
                return Response(status: .ok, headers: [HTTPField.Name("RateLimit")!: "limit=5, remaining=0, reset=3"])
            }
        }) { server in
            try await body(server.baseURL.absoluteString, arrivals)
        }
    }

    /// A transport that notes when each request enters it — right after the limiter let it
    /// go, in the same task — and passes it on.
    struct NotingTransport: Transport {
        let wrapped: any Transport
        let entries = Locked<[ContinuousClock.Instant]>([])

        func send(_ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?) async throws -> (
            HTTPResponse, MessageBody?
        ) {
            entries.withLock { $0.append(.now) }
            return try await wrapped.send(request, body: body, deadline: deadline)
        }
    }

    /// Runs `body` with a client of `middleware` over `kind` and a server of ``withServer(_:)``.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func withClient(
        _ kind: TransportKind,
        middleware: [any Middleware],
        _ body: (_ networker: Networker, _ base: String, _ arrivals: Arrivals) async throws -> Void
    ) async throws {
        try await withServer { base, arrivals in
            try await kind.with { transport in
                try await body(Networker(transport: transport, middleware: middleware), base, arrivals)
            }
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration / .milliseconds(1)) / 1000
    }

    /// Times sends to the tens of milliseconds, which a machine busy with the rest of the
    /// suite cannot keep: `.ci/run` runs it on its own with `STRATA_TIMING_TESTS=1`.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["STRATA_TIMING_TESTS"] != nil, "set STRATA_TIMING_TESTS=1"),
        arguments: TransportKind.allCases)
    func sixtyCallsAtTenASecondWithABurstOfFive(_ kind: TransportKind) async throws {
        try await Self.withServer { base, arrivals in
            try await kind.with { transport in
                let noting = NotingTransport(wrapped: transport)
                let networker = Networker(
                    transport: noting, middleware: [RateLimitMiddleware(requestsPerSecond: 10, burst: 5)])
                // The server pauses the host for 1 s first, so that all 60 calls are queued
                // when the bucket (full again) opens: on a loaded machine, calls that trickle
                // in while it refills would take the tokens as they come, a longer burst.
                _ = try await networker.send(Endpoint<String>(RequestDescription(route: base + "/pause")))
                let endpoint = Endpoint<String>(RequestDescription(route: base + "/ok"))
                let replies = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<60 { group.addTask { try await networker.send(endpoint) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(replies == Array(repeating: "ok", count: 60))
                #expect(arrivals.times("/ok").count == 60)
                // Counted where each request left the limiter (the server's clock adds the
                // loopback's jitter, which a loaded machine stretches to hundreds of ms).
                let sent = noting.entries.withLock { $0 }.sorted().dropFirst()  // the /pause call
                #expect(sent.count == 60)
                // 5 at once, then 55 at 10 a second.
                let spread = try Self.seconds(#require(sent.first).duration(to: #require(sent.last)))
                #expect(spread >= 5.45 && spread <= 6.5, "\(spread) s")
                // After the burst, no second lets more than the rate go (one more at its edges).
                let busiest = sent.indices.dropFirst(5).map { index in
                    sent[index...].prefix { sent[index].duration(to: $0) < .seconds(1) }.count
                }.max()
                #expect(busiest.map { $0 <= 11 } == true, "\(String(describing: busiest)) in one second")
            }
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(arguments: TransportKind.allCases)
    func a429WithRetryAfterPausesThatHostWhileAnotherGoesOn(_ kind: TransportKind) async throws {
        try await Self.withServer { base, arrivals in
            try await Self.withServer { otherBase, otherArrivals in
                try await kind.with { transport in
                    let networker = Networker(
                        transport: transport, middleware: [RateLimitMiddleware(requestsPerSecond: 100, burst: 10)])
                    let busy = Endpoint<String>(RequestDescription(route: base + "/busy"))
                    let refused = await #expect(throws: StrataError.self) { try await networker.send(busy) }
                    #expect(refused?.status == 429)
                    let paused = Task {
                        try await networker.send(Endpoint<String>(RequestDescription(route: base + "/ok")))
                    }
                    #expect(
                        try await networker.send(Endpoint<String>(RequestDescription(route: otherBase + "/ok"))) == "ok"
                    )
                    #expect(try await paused.value == "ok")
                    let sent429 = try #require(arrivals.times("/busy").first)
                    let resumed = try #require(arrivals.times("/ok").first)
                    let other = try #require(otherArrivals.times("/ok").first)
                    let pause = Self.seconds(sent429.duration(to: resumed))
                    #expect(pause >= 1.95 && pause <= 2.5, "\(pause) s")
                    #expect(Self.seconds(sent429.duration(to: other)) < 1, "the other host waited")
                }
            }
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(arguments: TransportKind.allCases)
    func noQuotaLeftPausesUntilTheReset(_ kind: TransportKind) async throws {
        try await Self.withClient(kind, middleware: [RateLimitMiddleware(requestsPerSecond: 100, burst: 10)]) {
            networker, base, arrivals in
            let quota = Endpoint<String>(RequestDescription(route: base + "/quota"))
            _ = try await networker.send(quota)
            _ = try await networker.send(quota)
            let times = arrivals.times("/quota")
            #expect(times.count == 2)
            let pause = Self.seconds(times[0].duration(to: times[1]))
            #expect(pause >= 2.95 && pause <= 3.5, "\(pause) s")
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(arguments: TransportKind.allCases)
    func aRetryAfterA429WaitsOnceNotTwice(_ kind: TransportKind) async throws {
        try await Self.withClient(
            kind, middleware: [RetryMiddleware(), RateLimitMiddleware(requestsPerSecond: 100, burst: 10)]
        ) { networker, base, arrivals in
            let start = ContinuousClock.now
            let response = try await networker.response(
                for: Endpoint<String>(RequestDescription(route: base + "/busy")))
            let took = Self.seconds(start.duration(to: .now))
            #expect(response.retry?.attempts == 2)
            #expect(arrivals.times("/busy").count == 2)
            // The retry's wait and the host's pause end together: about 2 s, not 4 (on a
            // loaded machine the calls themselves may add a second).
            #expect(took >= 1.95 && took < 3.9, "\(took) s")
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(arguments: TransportKind.allCases)
    func aQueuedCallPastItsDeadlineNeverReachesTheServer(_ kind: TransportKind) async throws {
        try await Self.withClient(kind, middleware: [RateLimitMiddleware(requestsPerSecond: 0.1, burst: 1)]) {
            networker, base, arrivals in
            let endpoint = Endpoint<String>(RequestDescription(route: base + "/ok"))
            let first = try await networker.send(endpoint)
            #expect(first == "ok")
            let error = await #expect(throws: StrataError.self) {
                try await networker.send(endpoint.timeout(.milliseconds(200)))
            }
            #expect(error?.isTimeout == true)
            #expect(arrivals.times().count == 1)
        }
    }
}
