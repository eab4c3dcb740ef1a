import Foundation
import HTTPTypes
import Logging
import Testing

@testable import Strata
@testable import StrataCore

/// The order and the parts of `[any Middleware].resilient(...)`.
@Suite struct ResilientPresetTests {
    struct Tokens: CredentialProvider {
        func currentCredential() async throws -> String { "token" }
        func refresh(_ rejected: String) async throws -> String { "token" }
    }

    static func names(_ steps: [any Middleware]) -> [String] {
        steps.map { "\(type(of: $0))" }
    }

    @Test func theDefaultsAreRedirectRetryAndBreakerInThatOrder() {
        #expect(Self.names(.resilient()) == ["RedirectMiddleware", "RetryMiddleware", "CircuitBreakerMiddleware"])
    }

    @Test func everyPartTakesItsPlace() {
        let steps: [any Middleware] = .resilient(
            logging: LoggingMiddleware(), authentication: AuthenticationMiddleware(Tokens()),
            perAttempt: [HeadersMiddleware([.userAgent: "app"])])
        #expect(
            Self.names(steps) == [
                "LoggingMiddleware", "RedirectMiddleware", "RetryMiddleware", "CircuitBreakerMiddleware",
                "AuthenticationMiddleware<Tokens>", "HeadersMiddleware",
            ])
    }

    @Test func partsTurnOffWithNil() {
        #expect(Self.names(.resilient(redirects: nil, retry: nil, circuitBreaker: nil)).isEmpty)
        let retry =
            Array<any Middleware>.resilient(redirects: nil, budget: nil, circuitBreaker: nil).first as? RetryMiddleware
        #expect(retry?.budget == nil)
        #expect(retry?.policy == RetryPolicy())
    }

    @Test func aPolicyIsPassedOn() {
        let steps: [any Middleware] = .resilient(
            redirects: RedirectPolicy(maxRedirects: 2), retry: RetryPolicy(maxAttempts: 5),
            circuitBreaker: CircuitBreakerPolicy(consecutiveFailures: 9))
        #expect((steps[0] as? RedirectMiddleware)?.policy.maxRedirects == 2)
        #expect((steps[1] as? RetryMiddleware)?.policy.maxAttempts == 5)
        #expect((steps[2] as? CircuitBreakerMiddleware)?.policy.consecutiveFailures == 9)
    }

    @Test func theBreakerCountsEveryAttemptAndAnOpenCircuitEndsTheRetries() async throws {
        let transport = ScriptedTransport(Array(repeating: .status(503), count: 10))
        var configuration = Networker.Configuration()
        configuration.logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let networker = Networker(
            transport: transport,
            middleware: .resilient(retry: RetryPolicy(maxBackoff: .milliseconds(1))),
            configuration: configuration)
        let endpoint = Endpoint<String>(RequestDescription(route: FixedRoute("http://a.test/x")))
        let first = await #expect(throws: StrataError.self) { try await networker.send(endpoint) }
        #expect(first?.status?.code == 503)
        #expect(first?.retry == RetrySummary(attempts: 3, stopReason: .attemptsExhausted))
        // Two more failures make five in a row: the breaker opens, and the third attempt fails fast.
        let second = await #expect(throws: StrataError.self) { try await networker.send(endpoint) }
        #expect(second?.kind == .circuitOpen)
        #expect(second?.retry == RetrySummary(attempts: 3, stopReason: .notRetryable))
        #expect(transport.requests.count == 5)
    }
}
