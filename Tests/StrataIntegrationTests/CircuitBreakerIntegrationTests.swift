import Foundation
import HTTPTypes
import Strata
import StrataFaultServer
import StrataTestSupport
import Testing

/// The circuit breaker against a real server that counts what it receives, over every transport.
@Suite(.isTimed) struct CircuitBreakerIntegrationTests {
    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func failuresOpenTheBreakerAndAProbeClosesIt(_ kind: TransportKind) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                // Long enough that the three fast failures below all fall inside the break, even
                // under ThreadSanitizer on a loaded machine.
                let policy = CircuitBreakerPolicy(consecutiveFailures: 3, breakDuration: .seconds(1))
                let networker = Networker(transport: transport, middleware: [CircuitBreakerMiddleware(policy: policy)])
                let unavailable = Endpoint<Data>(
                    RequestDescription(route: FixedURLRoute(target: server.url(for: .unavailable))))
                let ok = Endpoint<Data>(RequestDescription(route: FixedURLRoute(target: server.url(for: .ok))))

                for _ in 0..<3 {
                    let error = await #expect(throws: StrataError.self) { try await networker.send(unavailable) }
                    #expect(error?.status?.code == 503)
                }
                #expect(server.requestCount == 3)

                // Open: nothing reaches the server, whatever the path on that host.
                var retryAfter = Duration.zero
                for endpoint in [unavailable, unavailable, ok] {
                    let error = await #expect(throws: StrataError.self) { try await networker.send(endpoint) }
                    #expect(error?.kind == .circuitOpen)
                    let open = error?.underlying as? CircuitOpenError
                    #expect(open?.host == "127.0.0.1:\(server.port)")
                    #expect(open?.isProbing == false)
                    retryAfter = open?.retryAfter ?? .zero
                    #expect(retryAfter > .zero && retryAfter <= .seconds(1))
                }
                #expect(server.requestCount == 3)

                // After the break, the probe succeeds and closes the breaker.
                try await Task.sleep(for: retryAfter)
                _ = try await networker.send(ok)
                _ = try await networker.send(ok)
                #expect(server.requestCount == 5)
                let failing = server.url(for: .unavailable).path
                let healthy = server.url(for: .ok).path
                #expect(server.requests.map(\.path) == [failing, failing, failing, healthy, healthy])
            }
        }
    }
}
