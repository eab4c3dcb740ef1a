import Foundation
import HTTPTypes
import Testing

@testable import Strata
@testable import StrataCore

/// What a call reports about its attempts, the endpoint's custom decision, and the budget.
@Suite struct RetryOutcomeTests {
    static func middleware(_ policy: RetryPolicy = RetryPolicy(), budget: RetryBudget? = nil) -> RetryMiddleware {
        RetryMiddleware(policy: policy, budget: budget, sleep: { _ in }, now: { RetryTests.now })
    }

    @Test func aSuccessAfterRetriesSaysHowManyAttempts() async throws {
        let transport = ScriptedTransport([.status(503), .failure(.connectionLost)])
        let response = try await RetryTests.response(transport, retry: Self.middleware())
        #expect(response.value == "status 200")
        #expect(response.retry == RetrySummary(attempts: 3, stopReason: .notRetryable))
    }

    @Test func theFinalErrorSaysTheAttemptsRanOut() async throws {
        let transport = ScriptedTransport([.status(503), .status(503), .status(503)])
        let error = await #expect(throws: StrataError.self) {
            try await RetryTests.response(transport, retry: Self.middleware())
        }
        #expect(error?.retry == RetrySummary(attempts: 3, stopReason: .attemptsExhausted))
        #expect(
            error?.description == "GET http://a.test/x → 503 Service Unavailable: unacceptable status 503 "
                + "(3 attempts, stopped: attemptsExhausted); body: status 503")
    }

    @Test func theFinalErrorSaysWhyRetryingStopped() async throws {
        let notRetryable = await #expect(throws: StrataError.self) {
            try await RetryTests.response(ScriptedTransport([.status(503), .status(404)]), retry: Self.middleware())
        }
        #expect(notRetryable?.retry == RetrySummary(attempts: 2, stopReason: .notRetryable))

        let deadline = await #expect(throws: StrataError.self) {
            try await RetryTests.response(
                ScriptedTransport([.status(503, retryAfter: "5")]), timeout: .seconds(2), retry: Self.middleware())
        }
        #expect(deadline?.retry == RetrySummary(attempts: 1, stopReason: .deadline))

        let transport = ScriptedTransport([.status(503)])
        let stream = MessageBody(
            length: 4,
            streaming: AsyncStream {
                $0.yield(Data("data".utf8))
                $0.finish()
            })
        let context = MiddlewareContext()
        _ = try await Self.middleware().intercept(
            HTTPRequest(method: .put, url: URL(string: "http://a.test/x")!), body: stream, context: context
        ) { request, body, _ in try await transport.send(request, body: body, deadline: nil) }
        #expect(context.records[RetrySummaryKey.self] == RetrySummary(attempts: 1, stopReason: .bodyNotReplayable))
    }

    @Test func aClientWithoutRetryingReportsNoAttempts() async throws {
        let networker = Networker(transport: ScriptedTransport([.status(503)]))
        let error = await #expect(throws: StrataError.self) {
            try await networker.send(Endpoint<String>(RequestDescription(route: FixedRoute("http://a.test/x"))))
        }
        #expect(error?.status?.code == 503)
        #expect(error?.retry == nil)
    }

    @Test func aCustomDecisionSeesEachAttemptAndChoosesTheWait() async throws {
        let transport = ScriptedTransport([.status(425), .failure(.other), .status(425)])
        let seen = Locked<[String]>([])
        let waits = Locked<[Duration]>([])
        let retry = RetryMiddleware(
            policy: RetryPolicy(maxAttempts: 5, maxBackoff: .seconds(3)),
            sleep: { wait in waits.withLock { $0.append(wait) } }, now: { RetryTests.now })
        let rule = RetryRule.custom { attempt in
            let outcome =
                attempt.response.map { "\($0.status.code)" }
                ?? "\((attempt.error as? TransportError)?.kind.description ?? "?")"
            seen.withLock { $0.append("\(attempt.number):\(outcome):\(attempt.request.method)") }
            #expect(attempt.elapsed >= .zero && attempt.elapsed < .seconds(30))
            switch attempt.number {
            case 1: return .retryAfter(.seconds(1))
            case 2: return .retryAfter(.seconds(60))  // capped at maxBackoff
            default: return .stop
            }
        }
        let error = await #expect(throws: StrataError.self) {
            try await RetryTests.response(transport, method: .post, rule: rule, retry: retry)
        }
        #expect(error?.status?.code == 425)
        #expect(error?.retry == RetrySummary(attempts: 3, stopReason: .notRetryable))
        #expect(seen.withLock { $0 } == ["1:425:POST", "2:transport failure:POST", "3:425:POST"])
        #expect(waits.withLock { $0 } == [.seconds(1), .seconds(3)])
    }

    @Test func aCustomDecisionCanDeferToThePolicy() async throws {
        let transport = ScriptedTransport([.status(503), .status(503), .status(503)])
        let error = await #expect(throws: StrataError.self) {
            try await RetryTests.response(transport, rule: .custom { _ in .useDefaultRule }, retry: Self.middleware())
        }
        #expect(error?.retry == RetrySummary(attempts: 3, stopReason: .attemptsExhausted))
        #expect(transport.requests.count == 3)
    }

    @Test func theBudgetFillsWithCallsAndTimeAndEmptiesWithRetries() {
        let clock = ManualClock()
        let budget = RetryBudget(ratio: 0.25, minimumPerSecond: 2, capacity: 5, now: { clock.now })
        #expect(budget.balance == 2)  // one second's trickle to start
        #expect(budget.withdraw() && budget.withdraw())
        #expect(!budget.withdraw())
        for _ in 0..<4 { budget.deposit() }
        #expect(budget.balance == 1)
        clock.advance(by: .milliseconds(500))
        #expect(budget.balance == 2)
        clock.advance(by: .seconds(60))
        #expect(budget.balance == 5)  // capped
        budget.deposit()
        #expect(budget.balance == 5)
    }

    @Test func aSpentBudgetStopsRetryingAndSaysSo() async throws {
        let clock = ManualClock()
        let budget = RetryBudget(ratio: 0, minimumPerSecond: 2, capacity: nil, now: { clock.now })
        let transport = ScriptedTransport(Array(repeating: .status(503), count: 10))
        let retry = Self.middleware(budget: budget)
        let first = await #expect(throws: StrataError.self) { try await RetryTests.response(transport, retry: retry) }
        #expect(first?.retry == RetrySummary(attempts: 3, stopReason: .attemptsExhausted))
        let second = await #expect(throws: StrataError.self) { try await RetryTests.response(transport, retry: retry) }
        #expect(second?.retry == RetrySummary(attempts: 1, stopReason: .budgetSpent))
        #expect(transport.requests.count == 4)
        clock.advance(by: .milliseconds(500))  // one token trickles in
        let third = await #expect(throws: StrataError.self) { try await RetryTests.response(transport, retry: retry) }
        #expect(third?.retry == RetrySummary(attempts: 2, stopReason: .budgetSpent))
        #expect(transport.requests.count == 6)
    }

    @Test func retriesStayWithinTheShareOfCalls() async throws {
        let clock = ManualClock()
        let budget = RetryBudget(ratio: 0.2, minimumPerSecond: 0, capacity: nil, now: { clock.now })
        let transport = ScriptedTransport(Array(repeating: .status(503), count: 1000))
        let retry = Self.middleware(RetryPolicy(maxAttempts: 10), budget: budget)
        for _ in 0..<100 {
            _ = try? await RetryTests.response(transport, retry: retry)
        }
        // 100 calls earn 20 retries (a fifth of a token each, at most one token banked).
        #expect(transport.requests.count == 120)
    }
}
