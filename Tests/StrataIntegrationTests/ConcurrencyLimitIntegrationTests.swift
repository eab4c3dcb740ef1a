import Foundation
import Hummingbird
import Strata
import StrataTestServer
import Testing

/// ``ConcurrencyLimitMiddleware`` against the in-process server on both transports: the
/// server itself counts the requests it is serving at once.
@Suite("Concurrency limits against a real server")
struct ConcurrencyLimitIntegrationTests {
    /// How many requests the server is serving now, and the most at once.
    final class InFlight: Sendable {
        private let counts = Locked((now: 0, most: 0, served: 0))
        var most: Int { counts.withLock { $0.most } }
        var served: Int { counts.withLock { $0.served } }

        func serve(for duration: Duration) async throws {
            counts.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            defer {
                counts.withLock {
                    $0.now -= 1
                    $0.served += 1
                }
            }
            try await Task.sleep(for: duration)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(arguments: TransportKind.allCases)
    func aHundredCallsWithALimitOfFourNeverReachTheServerMoreThanFourAtOnce(_ kind: TransportKind) async throws {
        let inFlight = InFlight()
        try await TestServer.with(configure: { router in
            router.get("limited/:id") { _, context in
                try await inFlight.serve(for: .milliseconds(20))
                return context.parameters.get("id") ?? ""
            }
        }) { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport, middleware: [ConcurrencyLimitMiddleware(perHost: 4)])
                let base = server.baseURL.absoluteString
                let ids = try await withThrowingTaskGroup(of: String.self) { group in
                    for id in 0..<100 {
                        group.addTask {
                            try await networker.send(
                                Endpoint<String>(RequestDescription(route: base + "/limited/\(id)")))
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(ids.sorted() == (0..<100).map(String.init).sorted())
                #expect(inFlight.served == 100)
                #expect(inFlight.most == 4)
            }
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test(arguments: TransportKind.allCases)
    func aBusyHostDoesNotHoldUpAnother(_ kind: TransportKind) async throws {
        let slow = InFlight()
        let configure: @Sendable (Router<BasicRequestContext>) -> Void = { router in
            router.get("slow") { _, _ in
                try await slow.serve(for: .milliseconds(500))
                return "slow"
            }
        }
        try await TestServer.with(configure: configure) { busy in
            try await TestServer.with { other in
                try await kind.with { transport in
                    let networker = Networker(
                        transport: transport, middleware: [ConcurrencyLimitMiddleware(perHost: 2)])
                    let slowCalls = Task {
                        try await withThrowingTaskGroup(of: String.self) { group in
                            for _ in 0..<6 {
                                group.addTask {
                                    try await networker.send(
                                        Endpoint<String>(
                                            RequestDescription(route: busy.baseURL.absoluteString + "/slow")))
                                }
                            }
                            return try await group.reduce(into: []) { $0.append($1) }
                        }
                    }
                    while slow.most < 2 { try await Task.sleep(for: .milliseconds(5)) }
                    let reply = try await networker.send(
                        Endpoint(
                            RequestDescription(route: other.baseURL.absoluteString + "/echo/fast"),
                            decoding: EchoReply.self))
                    #expect(reply.path == "/echo/fast")
                    #expect(slow.served < 2)  // the busy host's first pair was still being served
                    #expect(try await slowCalls.value == Array(repeating: "slow", count: 6))
                    #expect(slow.most == 2)
                }
            }
        }
    }
}
