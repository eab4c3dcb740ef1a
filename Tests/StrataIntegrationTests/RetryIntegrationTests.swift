import Foundation
import HTTPTypes
import Strata
import StrataFaultServer
import Testing

/// Retries against a real server that counts what it receives, over every transport.
@Suite struct RetryIntegrationTests {
    /// A client whose retry step waits at most `maxBackoff` (`Retry-After: 1` included).
    static func networker(
        _ transport: any Transport,
        maxBackoff: Duration = .milliseconds(20),
        budget: RetryBudget? = RetryBudget(),
        // Far past what any test here takes: a deadline is the subject only where a test sets
        // one, and a loaded two-core machine (ThreadSanitizer) can stall a call for seconds.
        timeout: Duration = .seconds(60),
        attemptTimeout: Duration? = nil
    ) -> Networker {
        var configuration = Networker.Configuration()
        configuration.timeout = timeout
        configuration.attemptTimeout = attemptTimeout
        return Networker(
            transport: transport,
            middleware: [RetryMiddleware(policy: RetryPolicy(maxAttempts: 3, maxBackoff: maxBackoff), budget: budget)],
            configuration: configuration)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func endpoint(_ server: FaultServer, _ route: FaultRoute, method: HTTPRequest.Method = .get) -> Endpoint<
        Data
    > {
        Endpoint<Data>(RequestDescription(route: FixedURLRoute(target: server.url(for: route)), method: method))
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func a503WithRetryAfterIsRetriedUntilTheAttemptsRunOut(_ kind: TransportKind) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                let error = await #expect(throws: StrataError.self) {
                    try await Self.networker(transport).send(Self.endpoint(server, .unavailable))
                }
                #expect(error?.status?.code == 503)
                #expect(error?.retry == RetrySummary(attempts: 3, stopReason: .attemptsExhausted))
                #expect(server.requestCount == 3)
                #expect(Set(server.requests.map(\.method)) == ["GET"])
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aPostIsSentOnce(_ kind: TransportKind) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                let error = await #expect(throws: StrataError.self) {
                    try await Self.networker(transport).send(Self.endpoint(server, .unavailable, method: .post))
                }
                #expect(error?.retry == RetrySummary(attempts: 1, stopReason: .notRetryable))
                #expect(server.requestCount == 1)
            }
        }
    }

    /// Failures before a response head are retried; the server saw every attempt.
    ///
    /// Only the server that never answers needs the attempt timeout, and it must be long
    /// enough for the request to reach the server first: an attempt that times out before
    /// that is retried too, but the server never sees it (300 ms did not suffice under
    /// ThreadSanitizer on a loaded machine).
    @Test(arguments: TransportKind.allCases, [FaultRoute.resetBeforeHead, .closeBeforeHead, .neverAnswer])
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func failuresBeforeTheHeadAreRetried(_ kind: TransportKind, route: FaultRoute) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                let attemptTimeout: Duration? = route == .neverAnswer ? .seconds(2) : nil
                let networker = Self.networker(transport, attemptTimeout: attemptTimeout)
                let error = await #expect(throws: StrataError.self) {
                    try await networker.send(Self.endpoint(server, route))
                }
                #expect(error?.kind == .transport)
                #expect(error?.retry == RetrySummary(attempts: 3, stopReason: .attemptsExhausted))
                #expect(server.requests.map(\.target) == Array(repeating: route.target, count: 3))
            }
        }
    }

    /// A response that is not HTTP, and a status that is not retryable, are sent once.
    @Test(arguments: TransportKind.allCases, [FaultRoute.garbage, .redirect(status: 404, to: "/ok", withBody: false)])
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func otherOutcomesAreNotRetried(_ kind: TransportKind, route: FaultRoute) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                let error = await #expect(throws: StrataError.self) {
                    try await Self.networker(transport).send(Self.endpoint(server, route))
                }
                #expect(error?.retry == RetrySummary(attempts: 1, stopReason: .notRetryable))
                #expect(server.requestCount == 1)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func anIdempotencyKeyIsTheSameOnEveryAttempt(_ kind: TransportKind) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                var endpoint = Self.endpoint(server, .unavailable, method: .post)
                endpoint.retry = .withIdempotencyKey
                _ = await #expect(throws: StrataError.self) { try await Self.networker(transport).send(endpoint) }
                let keys = server.requests.map { $0.value(for: "Idempotency-Key") }
                #expect(keys.count == 3)
                #expect(keys.first.flatMap { $0.flatMap(UUID.init(uuidString:)) } != nil)
                #expect(Set(keys).count == 1)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aBodyThatCannotBeReadAgainIsNeverResent(_ kind: TransportKind) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                let retry = RetryMiddleware(policy: RetryPolicy(maxBackoff: .milliseconds(20)))
                let request = HTTPRequest(method: .put, url: server.url(for: .unavailable))
                let stream = MessageBody(
                    length: 4,
                    streaming: AsyncStream {
                        $0.yield(Data("data".utf8))
                        $0.finish()
                    })
                let (head, body) = try await retry.intercept(request, body: stream, context: MiddlewareContext()) {
                    request, body, _ in
                    try await transport.send(request, body: body, deadline: nil)
                }
                _ = try await body?.collect(upTo: 1 << 16)
                #expect(head.status.code == 503)
                #expect(server.requests.map(\.body) == [Array("data".utf8)])
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aSpentBudgetStopsRetrying(_ kind: TransportKind) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                // Half a retry per call and nothing trickling in: the first call cannot retry,
                // the second can once.
                let budget = RetryBudget(ratio: 0.5, minimumPerSecond: 0, capacity: 1)
                let networker = Self.networker(transport, budget: budget)
                let first = await #expect(throws: StrataError.self) {
                    try await networker.send(Self.endpoint(server, .unavailable))
                }
                #expect(first?.retry == RetrySummary(attempts: 1, stopReason: .budgetSpent))
                let second = await #expect(throws: StrataError.self) {
                    try await networker.send(Self.endpoint(server, .unavailable))
                }
                #expect(second?.retry == RetrySummary(attempts: 2, stopReason: .budgetSpent))
                #expect(server.requestCount == 3)
            }
        }
    }

    /// A 30 s wait asked for with under 20 s left: the wait would outlast the call, so the 503
    /// comes back at once instead of a timeout later.
    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func theDeadlineSpansTheAttempts(_ kind: TransportKind) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                let networker = Self.networker(transport, maxBackoff: .seconds(60), timeout: .seconds(20))
                var endpoint = Self.endpoint(server, .unavailable)
                endpoint.retry = .custom { _ in .retryAfter(.seconds(30)) }
                let error = await #expect(throws: StrataError.self) { try await networker.send(endpoint) }
                #expect(error?.status?.code == 503)
                #expect(error?.retry == RetrySummary(attempts: 1, stopReason: .deadline))
                #expect(server.requestCount == 1)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func cancellationEndsTheBackoffAtOnce(_ kind: TransportKind) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                // A 30 s wait, so that the cancellation lands in it however slow the machine
                // (a 1 s wait was over before a loaded ThreadSanitizer run cancelled).
                let networker = Self.networker(transport, maxBackoff: .seconds(30), timeout: .seconds(60))
                var endpoint = Self.endpoint(server, .unavailable)
                endpoint.retry = .custom { _ in .retryAfter(.seconds(30)) }
                let start = ContinuousClock.now
                let call = Task { try await networker.send(endpoint) }
                while server.requestCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
                try await Task.sleep(for: .milliseconds(50))  // now in the wait, or about to be
                call.cancel()
                var error: StrataError?
                if case .failure(let failure) = await call.result { error = failure as? StrataError }
                #expect(start.duration(to: .now) < .seconds(20))
                #expect(error?.kind == .cancelled)
                #expect(error?.retry == RetrySummary(attempts: 1, stopReason: .cancelled))
                #expect(server.requestCount == 1)
            }
        }
    }
}
