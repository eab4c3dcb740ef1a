import AsyncHTTPClient
import Foundation
import Strata
import StrataAsyncHTTPClient
import StrataFaultServer
import StrataTestSupport
import Testing

/// Many calls through the resilience preset (retry with its budget, circuit breaker) against a server that misbehaves at random,
/// with a fifth of the calls cancelled at a random moment.
@Suite(.runsAlone) struct ChaosTests {
    static let calls = 2000
    static let concurrency = 64

    /// The server's behaviours and how often each is asked for (out of 100).
    static let routes: [(FaultRoute, Int)] = [
        (.ok, 55), (.unavailable, 15), (.resetBeforeHead, 8), (.closeBeforeHead, 8),
        (.neverAnswer, 4), (.garbage, 4), (.resetMidBody, 3), (.lengthTooLong, 3),
    ]

    /// The stages a call may end in; anything else is a bug.
    static let expectedKinds: Set<StrataError.Kind> = [.transport, .cancelled, .unacceptableStatus, .circuitOpen]

    static func pickRoute() -> FaultRoute {
        var roll = Int.random(in: 0..<100)
        for (route, weight) in routes {
            if roll < weight { return route }
            roll -= weight
        }
        return .ok
    }

    /// How one call ended.
    enum Ending: Sendable {
        case value(String)
        case failure(StrataError)
    }

    /// Makes ``calls`` calls, ``concurrency`` at a time, to routes picked at random.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func load(_ networker: Networker, from server: FaultServer) async -> [Ending] {
        await withTaskGroup(of: Ending.self) { group in
            var endings: [Ending] = []
            for index in 0..<calls {
                if index >= concurrency, let ending = await group.next() { endings.append(ending) }
                let url = server.url(for: pickRoute())
                let cancelAfter: Duration? =
                    Int.random(in: 0..<5) == 0
                    ? .milliseconds(Int.random(in: 0...30)) : nil
                group.addTask { await call(url, on: networker, cancellingAfter: cancelAfter) }
            }
            for await ending in group { endings.append(ending) }
            return endings
        }
    }

    /// One call, cancelled after `cancelAfter` when it is set.
    static func call(_ url: URL, on networker: Networker, cancellingAfter cancelAfter: Duration?) async -> Ending {
        let call = Task { await send(url, on: networker) }
        if let cancelAfter {
            try? await Task.sleep(for: cancelAfter)
            call.cancel()
        }
        return await call.value
    }

    static func send(_ url: URL, on networker: Networker) async -> Ending {
        do {
            return .value(
                try await networker.send(Endpoint<String>(RequestDescription(route: FixedURLRoute(target: url)))))
        } catch {
            return .failure(error)
        }
    }

    /// How many calls ended in each way (`value` or the error's kind), and how many
    /// failures stopped retrying for each reason; checks every ending on the way.
    static func tally(_ endings: [Ending]) -> (kinds: [String: Int], stops: [String: Int]) {
        var kinds: [String: Int] = [:]
        var stops: [String: Int] = [:]
        for ending in endings {
            switch ending {
            case .value(let text):
                #expect(text == FaultResponses.okBody)
                kinds["value", default: 0] += 1
            case .failure(let error):
                #expect(expectedKinds.contains(error.kind), "\(error)")
                kinds[error.kind.description, default: 0] += 1
                if let transport = error.transportError { kinds["transport: \(transport.kind)", default: 0] += 1 }
                if let retry = error.retry { stops[retry.stopReason.description, default: 0] += 1 }
            }
        }
        return (kinds, stops)
    }

    @Test(.timeLimit(.minutes(3)))
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func everyCallEndsTypedAndRetriesStayWithinTheBudget() async throws {
        try await FaultServer.with { server in
            // A connection per concurrent call: with AsyncHTTPClient's default of 8, calls queue
            // behind the ones the server never answers and spend their attempt time waiting.
            var client = HTTPClient.Configuration.strataDefault
            client.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = Self.concurrency
            let transport = AsyncHTTPClientTransport(configuration: client)
            let budget = RetryBudget()
            var configuration = Networker.Configuration()
            // Generous for loopback, so the run means the same under ThreadSanitizer (which
            // slows every call several times) as in a plain build.
            configuration.timeout = .seconds(5)
            configuration.attemptTimeout = .seconds(1)
            let networker = Networker(
                transport: transport,
                middleware: .resilient(
                    retry: RetryPolicy(maxBackoff: .milliseconds(50)), budget: budget,
                    // About 40% of attempts fail here by design; the default breaker would be
                    // open most of the run, and every call would end at once in .circuitOpen.
                    circuitBreaker: CircuitBreakerPolicy(
                        failureRatio: 0.95, consecutiveFailures: 50, breakDuration: .milliseconds(100))),
                configuration: configuration)
            let start = ContinuousClock.now
            let endings = await Self.load(networker, from: server)
            let elapsed = start.duration(to: .now)
            try await transport.shutdown()

            #expect(endings.count == Self.calls)
            let (kinds, stops) = Self.tally(endings)
            // The budget: one second's trickle to start, a fifth of a retry per call, ten a second.
            let seconds = Double(elapsed.components.seconds) + 1
            let allowedRetries = Int(
                budget.minimumPerSecond + budget.ratio * Double(Self.calls) + budget.minimumPerSecond * seconds)
            let requests = server.requestCount
            print(
                "CHAOS-REPORT calls=\(Self.calls) requests=\(requests) allowed=\(Self.calls + allowedRetries) "
                    + "elapsed=\(elapsed) endings=\(kinds.sorted { $0.key < $1.key }) stops=\(stops.sorted { $0.key < $1.key })"
            )
            #expect(requests <= Self.calls + allowedRetries)
            #expect(kinds["value", default: 0] > 0)
            #expect(kinds["cancelled", default: 0] > 0)
            #expect(stops["budgetSpent", default: 0] > 0)
        }
    }
}
