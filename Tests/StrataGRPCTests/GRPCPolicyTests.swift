import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Strata
import StrataGRPC
import StrataGRPCDemo
import StrataTestSupport
import Testing

/// The fault service's call as an endpoint whose answer is an (empty) message.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private func faultEndpoint(_ name: String) throws -> GRPCEndpoint<Strata_Demo_V1_UserMessage> {
    GRPCEndpoint(try fault(name), decoding: Strata_Demo_V1_UserMessage.self)
}

/// A retry policy with short waits.
private func quickRetries(_ attempts: Int) -> Strata.RetryPolicy {
    Strata.RetryPolicy(maxAttempts: attempts, initialBackoff: .milliseconds(5), maxBackoff: .milliseconds(20))
}

/// Hands out `stale`, and `fresh` after a refresh, counting the refreshes.
private final class CountingTokens: CredentialProvider {
    private let count = Locked(0)

    var refreshes: Int { count.withLock { $0 } }

    func currentCredential() async throws -> String { "stale" }

    func refresh(_ rejected: String) async throws -> String {
        count.withLock { $0 += 1 }
        try await Task.sleep(for: .milliseconds(50))
        return "fresh"
    }
}

@Suite("Strata's policies over gRPC: retry, circuit breaker, credential refresh", .isTimed)
struct GRPCPolicyTests {
    @Test("Two unavailable then OK: 3 server calls, and the retry summary says 3 attempts")
    func retryThenOK() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let retry = GRPCRetryInterceptor(
            policy: quickRetries(3), budget: RetryBudget(), idempotentMethods: [FaultService.method])
        try await withDemo(interceptors: [retry]) { networker, faults in
            let response = try await networker.response(for: faultEndpoint("flaky:14:2:a"))
            #expect(faults.calls.value(for: "a") == 3)
            #expect(response.retry == RetrySummary(attempts: 3, stopReason: .notRetryable))

            // Always unavailable: the attempts are used up, the last status is the answer.
            let error = await #expect(throws: StrataError.self) {
                try await networker.send(faultEndpoint("flaky:14:9:b"))
            }
            #expect(faults.calls.value(for: "b") == 3)
            #expect(error?.retry == RetrySummary(attempts: 3, stopReason: .attemptsExhausted))
            #expect(error?.grpcStatus?.code == .unavailable)
            #expect(error?.transportError?.kind == .connectionLost)

            // A status the policy does not retry is the answer at once.
            let notFound = await #expect(throws: StrataError.self) {
                try await networker.send(faultEndpoint("flaky:5:9:c"))
            }
            #expect(faults.calls.value(for: "c") == 1)
            #expect(notFound?.grpcStatus?.code == .notFound)
            #expect(notFound?.retry == RetrySummary(attempts: 1, stopReason: .notRetryable))
        }
    }

    @Test("Two attempts that never answer, given up at the attempt timeout, then OK: 3 server calls, 2 cancelled")
    func attemptTimeoutRetried() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let retry = GRPCRetryInterceptor(
            policy: quickRetries(3), budget: RetryBudget(), idempotentMethods: [FaultService.method])
        var configuration = GRPCNetworker.Configuration()
        configuration.timeout = .seconds(30)
        // 1 s, not less: the attempt that answers has to answer within it while the whole suite
        // runs on two cores (at 200 ms it once timed out too).
        configuration.attemptTimeout = .seconds(1)
        try await withDemo(configuration: configuration, interceptors: [retry]) { networker, faults in
            let start = ContinuousClock.now
            let response = try await networker.response(for: faultEndpoint("hang-first:2:a"))
            let elapsed = start.duration(to: .now)
            #expect(faults.calls.value(for: "a") == 3)
            #expect(response.retry == RetrySummary(attempts: 3, stopReason: .notRetryable))
            #expect(elapsed >= .seconds(2) && elapsed < .seconds(10), "took \(elapsed)")
            // The server's handlers of the two abandoned attempts were cancelled.
            try await waitUntil { faults.calls.value(for: "a-cancelled") >= 2 }
            #expect(faults.calls.value(for: "a-cancelled") == 2)
        }
    }

    @Test(
        "Without retries, an attempt over the endpoint's attempt timeout fails as timedOut, long before the call's deadline"
    )
    func attemptTimeoutWithoutRetry() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        var configuration = GRPCNetworker.Configuration()
        configuration.timeout = .seconds(30)
        try await withDemo(configuration: configuration) { networker, faults in
            let start = ContinuousClock.now
            let error = await #expect(throws: StrataError.self) {
                // Long enough for a loaded machine to get the request to the server first.
                try await networker.send(faultEndpoint("hang-first:9:b").attemptTimeout(.milliseconds(500)))
            }
            let elapsed = start.duration(to: .now)
            #expect(error?.kind == .transport)
            #expect(error?.transportError?.kind == .timedOut)
            #expect(error?.grpcStatus?.code == .deadlineExceeded)
            #expect(error?.grpcStatus?.message == "the attempt timed out after 0.5 seconds")
            #expect(faults.calls.value(for: "b") == 1)
            #expect(elapsed >= .milliseconds(450) && elapsed < .seconds(5), "took \(elapsed)")
        }
    }

    @Test("A method not marked idempotent gets its unavailable after 1 server call, unless its endpoint is marked")
    func nonIdempotent() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let retry = GRPCRetryInterceptor(policy: quickRetries(3), budget: RetryBudget())
        try await withDemo(interceptors: [retry]) { networker, faults in
            let error = await #expect(throws: StrataError.self) {
                try await networker.send(faultEndpoint("flaky:14:2:a"))
            }
            #expect(faults.calls.value(for: "a") == 1)
            #expect(error?.grpcStatus?.code == .unavailable)
            #expect(error?.retry == RetrySummary(attempts: 1, stopReason: .notRetryable))

            let marked = try await networker.response(for: faultEndpoint("flaky:14:2:b").retry(.withIdempotencyKey))
            #expect(faults.calls.value(for: "b") == 3)
            #expect(marked.retry == RetrySummary(attempts: 3, stopReason: .notRetryable))

            // A custom rule decides, seeing the status as the attempt's error.
            let custom = try await networker.response(
                for: faultEndpoint("flaky:10:1:c").retry(
                    .custom { attempt in (attempt.error as? GRPCStatus)?.code == .aborted ? .retry : .stop }))
            #expect(faults.calls.value(for: "c") == 2)
            #expect(custom.retry?.attempts == 2)
        }
    }

    @Test("resourceExhausted and aborted are retried when the interceptor is told to")
    func configuredCodes() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let retry = GRPCRetryInterceptor(
            policy: quickRetries(3), budget: nil, retryableCodes: [.unavailable, .resourceExhausted, .aborted],
            idempotentMethods: [FaultService.method])
        try await withDemo(interceptors: [retry]) { networker, faults in
            _ = try await networker.send(faultEndpoint("flaky:8:1:a"))
            _ = try await networker.send(faultEndpoint("flaky:10:2:b"))
            #expect(faults.calls.value(for: "a") == 2)
            #expect(faults.calls.value(for: "b") == 3)
        }
    }

    @Test("A spent budget stops retrying: budgetSpent")
    func budgetSpent() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        // One token a call, none by the second, at most one held: one retry, then none.
        let budget = RetryBudget(ratio: 1, minimumPerSecond: 0, capacity: 1)
        let retry = GRPCRetryInterceptor(
            policy: quickRetries(5), budget: budget, idempotentMethods: [FaultService.method])
        try await withDemo(interceptors: [retry]) { networker, faults in
            let error = await #expect(throws: StrataError.self) {
                try await networker.send(faultEndpoint("flaky:14:9:a"))
            }
            #expect(faults.calls.value(for: "a") == 2)
            #expect(error?.retry == RetrySummary(attempts: 2, stopReason: .budgetSpent))
            #expect(error?.grpcStatus?.code == .unavailable)
        }
    }

    @Test("8 concurrent calls rejected as unauthenticated: exactly 1 refresh, and all succeed")
    func singleFlightRefresh() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let tokens = CountingTokens()
        let retry = GRPCRetryInterceptor(policy: quickRetries(3), idempotentMethods: [FaultService.method])
        let auth = GRPCAuthenticationInterceptor(tokens)
        try await withDemo(interceptors: [retry, auth]) { networker, faults in
            let responses = try await withThrowingTaskGroup(of: GRPCResponse<Strata_Demo_V1_UserMessage>.self) {
                group in
                for _ in 0..<8 {
                    group.addTask { try await networker.response(for: faultEndpoint("auth")) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.count == 8)
            #expect(tokens.refreshes == 1)
            #expect(responses.compactMap(\.credentialRefreshes).reduce(0, +) == 1)
            #expect(faults.calls.value(for: "auth") == 16)
            // The renewed credential is kept: the next call is sent once.
            _ = try await networker.send(faultEndpoint("auth"))
            #expect(faults.calls.value(for: "auth") == 17)
        }
    }

    @Test("The breaker opens after its consecutive failures; the next call fails fast as circuitOpen, without a call")
    func breakerOpens() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let breaker = GRPCCircuitBreakerInterceptor(
            policy: CircuitBreakerPolicy(consecutiveFailures: 3, breakDuration: .seconds(60)), target: "faults:1")
        try await withDemo(interceptors: [breaker]) { networker, faults in
            var last: StrataError?
            for _ in 0..<3 {
                last = await #expect(throws: StrataError.self) { try await networker.send(faultEndpoint("status:13")) }
                #expect(last?.kind == .grpcStatus)
            }
            #expect(last?.circuitTransitions?.map(\.state) == ["open"])
            #expect(faults.calls.value == 3)

            let refused = await #expect(throws: StrataError.self) { try await networker.send(faultEndpoint("echo")) }
            #expect(refused?.kind == .circuitOpen)
            let open = refused?.underlying as? CircuitOpenError
            #expect(open?.host == "faults:1")
            #expect(open?.isProbing == false)
            #expect(faults.calls.value == 3)
        }
    }

    @Test("Retry outside the breaker: the breaker opens during the retries, and the call stops there")
    func retryStopsAtOpenBreaker() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let retry = GRPCRetryInterceptor(policy: quickRetries(5), budget: nil, idempotentMethods: [FaultService.method])
        let breaker = GRPCCircuitBreakerInterceptor(
            policy: CircuitBreakerPolicy(consecutiveFailures: 2, breakDuration: .seconds(60)), target: "faults:1")
        try await withDemo(interceptors: [retry, breaker]) { networker, faults in
            let error = await #expect(throws: StrataError.self) {
                try await networker.send(faultEndpoint("flaky:14:9:a"))
            }
            #expect(faults.calls.value(for: "a") == 2)
            #expect(error?.kind == .circuitOpen)
            #expect(error?.retry == RetrySummary(attempts: 3, stopReason: .notRetryable))
            #expect(error?.circuitTransitions?.map(\.state) == ["open"])
        }
    }
}

@Suite("Strata's interceptors on a plain GRPCClient", .isTimed)
struct GRPCPlainClientPolicyTests {
    @Test(
        "With GRPCNetworker.executionPolicy(for:), a plain client retries, renews and bounds attempts through the same interceptors"
    )
    func plainClient() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let faults = FaultService()
        let server = try await DemoGRPCServer.start(services: [faults])
        let tokens = CountingTokens()
        let interceptors: [any ClientInterceptor] = [
            GRPCRetryInterceptor(policy: quickRetries(3), idempotentMethods: [FaultService.method]),
            GRPCAuthenticationInterceptor(tokens),
        ]
        let client = GRPCClient(
            transport: GRPCAttemptTimeoutTransport(
                try HTTP2ClientTransport.Posix(
                    target: .ipv4(address: "127.0.0.1", port: server.port), transportSecurity: .plaintext),
                // Long enough that no answered attempt of the calls below runs over it on a
                // loaded machine (an extra attempt would change the counts; at 1 s, one did).
                timeout: .seconds(3)),
            interceptors: interceptors)
        let connections = Task { try await client.runConnections() }
        var options = CallOptions.defaults
        options.executionPolicy = GRPCNetworker.executionPolicy(for: interceptors)
        options.timeout = .seconds(30)
        func call(_ fault: String) async throws -> [UInt8] {
            var metadata = Metadata()
            metadata.addString(fault, forKey: "fault")
            return try await client.unary(
                request: ClientRequest(message: [], metadata: metadata), descriptor: FaultService.method,
                serializer: BytesCoder(), deserializer: BytesCoder(), options: options
            ) { try $0.message }
        }
        do {
            _ = try await call("flaky:14:2:a")
            #expect(faults.calls.value(for: "a") == 3)
            await #expect(throws: RPCError.self) { try await call("flaky:14:9:b") }
            #expect(faults.calls.value(for: "b") == 3)
            _ = try await call("auth")
            #expect(tokens.refreshes == 1)
            #expect(faults.calls.value(for: "auth") == 2)
            // Two attempts given up at 3 s each, then the answer.
            _ = try await call("hang-first:2:c")
            #expect(faults.calls.value(for: "c") == 3)
        } catch {
            Issue.record(error)
        }
        client.beginGracefulShutdown()
        _ = await connections.result
        await server.shutdown()
    }
}
