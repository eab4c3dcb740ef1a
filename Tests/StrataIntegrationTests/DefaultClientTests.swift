import Foundation
import Strata
import StrataAsyncHTTPClient
import StrataTestServer
import StrataURLSession
import Testing

/// `Networker()`, the seed's spelling of a client: on Linux no server's response can
/// crash it, and the AsyncHTTPClient transport it makes needs no shutdown to be dropped.
@Suite("The default client")
struct DefaultClientTests {
    /// Half a head, then FIN: FoundationNetworking's `URLSession` stops the process on it
    /// (`Transfer completed, but there's no response.`), so this runs in this process only
    /// where `Networker()` is not a URLSession client.
    @Test(.enabled(if: DefaultClientTests.isLinux, "Networker() is a URLSession client off Linux"))
    func survivesHalfAHeadThenFIN() async throws {
        let halfHead = RawReplyServer.http("HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Len")
        let outcome = try await RawReplyServer.with(reply: halfHead) { server in
            let (observation, _) = await FaultExchange.run(
                server.baseURL.appendingPathComponent("user"), with: Networker())
            return observation.outcome
        }
        #expect(outcome == .transport(.connectionLost, .awaitingHead))
    }

    @Test func isAsyncHTTPClientOnLinux() {
        let transport = Networker().transport
        #expect((transport is AsyncHTTPClientTransport) == Self.isLinux)
        #expect((transport is URLSessionTransport) == !Self.isLinux)
    }

    /// Dropped without `shutdown()` after a call: a running `HTTPClient` deinitialised
    /// traps in a debug build, so getting past this test is the proof; the next call on a
    /// new transport checks that the shared event loops are still serving.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func anOwnedClientShutsDownWhenDropped() async throws {
        try await TestServer.with { server in
            for _ in 0..<3 {
                let networker = Networker(transport: AsyncHTTPClientTransport())
                let text = try await networker.send(
                    Endpoint<String>(RequestDescription(route: server.baseURL.appendingPathComponent("status/200"))))
                #expect(text == "status 200")
            }
        }
    }

    /// The body of a response outlives the client that fetched it: the transport's own
    /// `HTTPClient` stays up until the body is read to its end.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func aStreamedBodyKeepsItsClientAlive() async throws {
        try await TestServer.withStreamingRoutes { server, _ in
            var networker: Networker? = Networker(transport: AsyncHTTPClientTransport())
            let endpoint = Endpoint<Data>(
                RequestDescription(route: server.baseURL.appendingPathComponent("declared/300000/kept")))
            let (head, body) = try await networker!.stream(endpoint)
            networker = nil
            let data = try await body.collect(upTo: 1 << 20)
            #expect(head.status.code == 200)
            #expect(data == Data(repeating: 0x02, count: 300_000))
        }
    }

    static var isLinux: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }
}
