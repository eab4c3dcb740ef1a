import Foundation
import HTTPTypes
import Strata
import StrataAsyncHTTPClient
import StrataFaultServer
import StrataTestServer
import StrataTestSupport
import Testing

/// The calls that open a connection and keep it — an event stream, a WebSocket's
/// handshake — end as any call does when the deadline passes (for an event stream's body,
/// its idle timeout), the task is cancelled or the server drops the connection: with the
/// exact kind, the request, the phase and on time, against servers on 127.0.0.1. The
/// WebSocket's reads are `WebSocketEndingTests`'.
@Suite("Connections end as the call does", .isTimed)
struct ConnectionEndingTests {
    typealias Ending = CallEndingCause
    typealias Outcome = WaitEndingTests.Outcome

    /// The event stream's idle timeout, and how long its reconnection waits.
    static let idleTimeout = Duration.milliseconds(300)
    static let reconnectionTime = Duration.milliseconds(10)
    static var margin: Duration { Ending.margin }

    /// The events read, and how the stream ended.
    struct EventsOutcome {
        var data: [String] = []
        var error: StrataError?
        /// From the first event (or the cancellation) to the end.
        var elapsed = Duration.zero
    }

    /// Reads the events of `path` until the stream throws, cancelling the reading task
    /// ``WaitEndingTests/cancelAfter`` after the first event when `ending` says so.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func readEvents(
        _ path: String, on server: TestServer, transport: any Transport, ending: Ending
    ) async throws -> EventsOutcome {
        let networker = Networker(transport: transport)
        let policy = ReconnectionPolicy(
            reconnectionTime: reconnectionTime, jitter: false, maximumReconnections: 3, budget: .unlimited)
        let events = networker.events(
            RequestDescription(route: server.baseURL.absoluteString + path),
            idleTimeout: ending == .deadlinePasses ? idleTimeout : nil, reconnection: policy)
        let firstEvent = AsyncStream<ContinuousClock.Instant>.makeStream()
        let reading = Task { () -> EventsOutcome in
            var outcome = EventsOutcome()
            do {
                for try await event in events {
                    if outcome.data.isEmpty { firstEvent.continuation.yield(.now) }
                    outcome.data.append(event.data)
                }
            } catch {
                outcome.error = error as? StrataError
            }
            firstEvent.continuation.finish()
            return outcome
        }
        var from = ContinuousClock.now
        for await first in firstEvent.stream {
            from = first
            break
        }
        if ending == .taskCancelled {
            try await Task.sleep(for: WaitEndingTests.cancelAfter)
            from = .now
            reading.cancel()
        }
        var outcome = await reading.value
        outcome.elapsed = from.duration(to: .now)
        return outcome
    }

    /// An event stream: its idle timeout and a drop reconnect with `Last-Event-ID` (the
    /// server then says it is done, `204`), a cancellation ends it as the call's.
    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func anEventStream(_ kind: TransportKind) async throws {
        for ending in Ending.allCases {
            let routes = EventStreamRoutes()
            try await TestServer.with(configure: { routes.register(on: $0) }) { server in
                try await kind.with { transport in
                    let path = ending == .serverDrops ? "/events/feed?total=2&per=1&ending=drop" : "/events/silent"
                    let outcome = try await Self.readEvents(path, on: server, transport: transport, ending: ending)
                    let error = try #require(outcome.error, "\(ending)")
                    switch ending {
                    case .deadlinePasses:
                        // Silent past the idle timeout: reconnected after the reconnection time.
                        #expect(outcome.data == ["hello"])
                        #expect(error.kind == .eventStream, "\(error)")
                        #expect(EventStreamTests.eventStreamError(error) == .closedByServer)
                        #expect(routes.connections.map(\.lastEventID) == [nil, "1"])
                        let expected = Self.idleTimeout + Self.reconnectionTime
                        #expect(
                            outcome.elapsed >= expected && outcome.elapsed < expected + Self.margin,
                            "\(outcome.elapsed)")
                    case .taskCancelled:
                        #expect(outcome.data == ["hello"])
                        #expect(error.kind == .cancelled, "\(error)")
                        #expect(error.phase == .readingBody)
                        #expect(error.request?.path == "/events/silent")
                        #expect(error.status == .ok)
                        #expect(routes.connections.count == 1)
                        #expect(outcome.elapsed < Self.margin, "\(outcome.elapsed)")
                    case .serverDrops:
                        // Each drop loses the half event, and the next connection resumes.
                        #expect(outcome.data == ["event 1", "event 2"])
                        #expect(error.kind == .eventStream, "\(error)")
                        #expect(EventStreamTests.eventStreamError(error) == .closedByServer)
                        #expect(routes.connections.map(\.lastEventID) == [nil, "1", "2"])
                    }
                }
            }
        }
    }

    /// A WebSocket's handshake is a call: at the deadline its timeout, cancelled its
    /// cancellation, dropped a lost connection, each waiting for the head. AsyncHTTPClient
    /// only: URLSession on Linux opens no WebSockets.
    @Test
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aWebSocketHandshake() async throws {
        for ending in Ending.allCases {
            try await FaultServer.with { server in
                try await AsyncHTTPClientTransport().shuttingDown { transport in
                    var configuration = Networker.Configuration()
                    configuration.timeout = ending == .deadlinePasses ? Ending.deadline : .seconds(30)
                    let networker = Networker(transport: transport, configuration: configuration)
                    let route: FaultRoute = ending == .serverDrops ? .resetBeforeHead : .neverAnswer
                    let outcome = try await WaitEndingTests.outcome(of: ending) {
                        let socket = try await networker.webSocket(RequestDescription(route: server.url(for: route)))
                        await socket.close()
                    }
                    if ending == .serverDrops {
                        #expect(outcome.error.kind == .transport, "\(outcome.error)")
                        #expect(outcome.error.transportError?.kind == .connectionLost, "\(outcome.error)")
                        #expect(outcome.error.phase == .awaitingHead)
                        #expect(outcome.error.request?.path == "/reset-before-head")
                    } else {
                        WaitEndingTests.expectTheCallsEnding(
                            outcome, ending, path: "/never-answer", deadline: Ending.deadline)
                    }
                    #expect(server.requests.count == 1)
                }
            }
        }
    }
}
