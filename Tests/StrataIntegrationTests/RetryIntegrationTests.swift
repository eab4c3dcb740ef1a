import Foundation
import HTTPTypes
import Strata
import StrataFaultServer
import Testing

/// Retries against a real server that counts what it receives, over every transport.
@Suite struct RetryIntegrationTests {
    @Test(arguments: TransportKind.allCases)
    func a503WithRetryAfterIsRetriedUntilTheAttemptsRunOut(_ kind: TransportKind) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                // Retry-After: 1 is capped to 20 ms, so the test does not wait.
                let retry = RetryMiddleware(policy: RetryPolicy(maxAttempts: 3, maxBackoff: .milliseconds(20)))
                let networker = Networker(transport: transport, middleware: [retry])
                let route = FixedURLRoute(target: server.url(for: .unavailable))
                let error = await #expect(throws: StrataError.self) {
                    try await networker.send(Endpoint<Data>(RequestDescription(route: route)))
                }
                #expect(error?.status?.code == 503)
                #expect(server.requestCount == 3)
                #expect(Set(server.requests.map(\.method)) == ["GET"])
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aPostIsSentOnce(_ kind: TransportKind) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport, middleware: [RetryMiddleware()])
                let route = FixedURLRoute(target: server.url(for: .unavailable))
                await #expect(throws: StrataError.self) {
                    try await networker.send(Endpoint<Data>(RequestDescription(route: route, method: .post)))
                }
                #expect(server.requestCount == 1)
            }
        }
    }
}
