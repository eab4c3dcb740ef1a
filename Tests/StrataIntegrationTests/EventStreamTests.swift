import Foundation
import HTTPTypes
import StrataTestServer
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// `Networker.events` against an in-process server on both transports: reconnection
/// from the last event ID however the connection ends, `retry:` and backoff, what stops
/// it (204, a status, a content type, the budget, the limit, cancellation), and the idle
/// timeout. Connections are counted on the server.
@Suite("Event streams", .isTimed)
struct EventStreamTests {
    /// Records each wait before a reconnection instead of waiting.
    final class Waits: Sendable {
        private let recorded = Locked<[Duration]>([])
        var all: [Duration] { recorded.withLock { $0 } }

        func policy(
            reconnectionTime: Duration = .milliseconds(10), maximumReconnections: Int? = nil,
            budget: ReconnectionPolicy.Budget = .unlimited
        ) -> ReconnectionPolicy {
            var policy = ReconnectionPolicy(
                reconnectionTime: reconnectionTime, jitter: false, maximumReconnections: maximumReconnections,
                budget: budget)
            policy.sleep = { [recorded] delay in recorded.withLock { $0.append(delay) } }
            return policy
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func withServer(
        _ kind: TransportKind,
        _ body: (Networker, TestServer, EventStreamRoutes) async throws -> Void
    ) async throws {
        let routes = EventStreamRoutes()
        try await TestServer.with(configure: { routes.register(on: $0) }) { server in
            try await kind.with { transport in
                try await body(Networker(transport: transport), server, routes)
            }
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func request(_ server: TestServer, _ path: String) -> RequestDescription<String> {
        RequestDescription(route: server.baseURL.absoluteString + path)
    }

    static func eventStreamError(_ error: (any Error)?) -> EventStreamError? {
        guard let error = error as? StrataError, error.kind == .eventStream else { return nil }
        return error.underlying as? EventStreamError
    }

    @Test(arguments: TransportKind.allCases, ["close", "partial", "drop"])
    func reconnectsFromTheLastEventIDHoweverTheConnectionEnds(kind: TransportKind, ending: String) async throws {
        try await Self.withServer(kind) { networker, server, routes in
            let waits = Waits()
            let stream = networker.events(
                Self.request(server, "/events/feed?total=7&per=3&ending=\(ending)"), reconnection: waits.policy())
            let (events, error) = await collectUntilError(stream)
            #expect(events.map(\.data) == (1...7).map { "event \($0)" })
            #expect(events.map(\.id) == (1...7).map { "\($0)" })
            // The half event's `id: 999` never counts: its block did not end.
            let sent = routes.connections.map(\.lastEventID)
            if ending == "drop" {
                // A reset may lose bytes the server wrote before it (on either side), so the
                // stream may resume from an earlier event; it resumes from one it delivered,
                // always later than the last resume, and ends after the seventh.
                let resumed = sent.dropFirst().compactMap { $0.flatMap { Int($0) } }
                #expect(sent.first == .some(nil) && resumed.count == sent.count - 1)
                #expect(resumed == resumed.sorted() && Set(resumed).count == resumed.count && resumed.last == 7)
            } else {
                #expect(sent == [nil, "3", "6", "7"])
                #expect(waits.all == [.milliseconds(10), .milliseconds(10), .milliseconds(10)])
            }
            #expect(routes.connections.allSatisfy { $0.accept == "text/event-stream" })
            guard case .closedByServer = Self.eventStreamError(error) else {
                Issue.record("expected the 204 to stop the stream, got \(String(describing: error))")
                return
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func everyConnectionGoesThroughTheClientsSteps(kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, server, routes in
            // The redirect step follows the 307 on every connection, keeping Last-Event-ID.
            let (events, _) = await collectUntilError(
                networker.events(Self.request(server, "/events/moved?total=2&per=1"), reconnection: Waits().policy()))
            #expect(events.map(\.id) == ["1", "2"])
            #expect(
                routes.connections.map(\.path)
                    == Array(repeating: ["/events/moved", "/events/feed"], count: 3).flatMap { $0 })
            #expect(routes.connections.map(\.lastEventID) == [nil, nil, "1", "1", "2", "2"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theServersRetryFieldSetsTheWait(kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, server, routes in
            let waits = Waits()
            let stream = networker.events(
                Self.request(server, "/events/feed?total=4&per=2&retry=40"), reconnection: waits.policy())
            let (events, _) = await collectUntilError(stream)
            #expect(events.map(\.id) == ["1", "2", "3", "4"])
            #expect(waits.all == [.milliseconds(40), .milliseconds(40)])
            #expect(routes.connections.count == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func failuresInARowBackOffUpToTheLimit(kind: TransportKind) async throws {
        let closed = try ClosedPort()
        try await kind.with { transport in
            let waits = Waits()
            let stream = Networker(transport: transport).events(
                RequestDescription(route: "http://127.0.0.1:\(closed.port)/events"),
                reconnection: waits.policy(maximumReconnections: 3))
            let (events, error) = await collectUntilError(stream)
            #expect(events.isEmpty)
            guard case .reconnectionLimitReached(3) = Self.eventStreamError(error) else {
                Issue.record("expected the limit to stop the stream, got \(String(describing: error))")
                return
            }
            #expect(waits.all == [.milliseconds(20), .milliseconds(40), .milliseconds(80)])
        }
    }

    @Test(arguments: TransportKind.allCases, [500, 404, 201])
    func aStatusOtherThan200Stops(kind: TransportKind, status: Int) async throws {
        try await Self.withServer(kind) { networker, server, routes in
            let (events, error) = await collectUntilError(
                networker.events(Self.request(server, "/events/status/\(status)"), reconnection: Waits().policy()))
            #expect(events.isEmpty)
            #expect((error as? StrataError)?.kind == .unacceptableStatus)
            #expect((error as? StrataError)?.status?.code == status)
            #expect(routes.connections.count == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aBodyThatIsNotAnEventStreamStops(kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, server, routes in
            let (events, error) = await collectUntilError(
                networker.events(Self.request(server, "/events/plain"), reconnection: Waits().policy()))
            #expect(events.isEmpty)
            #expect((error as? StrataError)?.kind == .unacceptableContentType)
            #expect(routes.connections.count == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func theClientsRetryBudgetLimitsReconnections(kind: TransportKind) async throws {
        let routes = EventStreamRoutes()
        try await TestServer.with(configure: { routes.register(on: $0) }) { server in
            try await kind.with { transport in
                // A budget that holds no token: the first reconnection finds none.
                let retry = RetryMiddleware(budget: RetryBudget(ratio: 0, minimumPerSecond: 0))
                let networker = Networker(transport: transport, middleware: [retry])
                let waits = Waits()
                let (events, error) = await collectUntilError(
                    networker.events(
                        Self.request(server, "/events/feed?total=9&per=3"), reconnection: waits.policy(budget: .client))
                )
                #expect(events.map(\.id) == ["1", "2", "3"])
                guard case .budgetSpent = Self.eventStreamError(error) else {
                    Issue.record("expected the budget to stop the stream, got \(String(describing: error))")
                    return
                }
                #expect(routes.connections.count == 1)
                #expect(waits.all.isEmpty)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellationStopsAtOnceAndNothingReconnects(kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, server, routes in
            let stream = networker.events(Self.request(server, "/events/endless"), reconnection: Waits().policy())
            let reader = Task {
                var received: [String] = []
                do {
                    for try await event in stream {
                        received.append(event.data)
                        if received.count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
                    }
                    return (received, nil as StrataError?)
                } catch {
                    return (received, error as? StrataError)
                }
            }
            let (received, error) = await reader.value
            #expect(received == ["tick 1", "tick 2", "tick 3"])
            #expect(error?.kind == .cancelled)
            try await Deadline.sleep(for: .milliseconds(100))
            #expect(routes.connections.count == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aSilentConnectionIsDroppedAfterTheIdleTimeoutAndResumed(kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, server, routes in
            let (events, error) = await collectUntilError(
                networker.events(
                    Self.request(server, "/events/silent"), idleTimeout: .milliseconds(200),
                    reconnection: Waits().policy()))
            #expect(events == [ServerSentEvent(data: "hello", id: "1")])
            #expect(routes.connections.map(\.lastEventID) == [nil, "1"])
            guard case .closedByServer = Self.eventStreamError(error) else {
                Issue.record("expected the 204 to stop the stream, got \(String(describing: error))")
                return
            }
        }
    }
}
