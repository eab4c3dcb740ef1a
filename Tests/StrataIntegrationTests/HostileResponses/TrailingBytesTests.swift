import Foundation
import Strata
import Testing

/// Bytes a server sends past the end of a response (after a `204`, past a
/// `Content-Length`) — here a whole second response, `injected`, that no request asked
/// for — must never become another request's answer, and should not fail it either.
@Suite("Bytes after a response")
struct TrailingBytesTests {
    static let injecting = HostileCase(
        seed: 900,
        bytes: Array("HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\ninjected".utf8),
        ending: .silence)
    static let legit = HostileCase(
        seed: 901, bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nlegit!".utf8), ending: .silence)
    static let overlong = HostileCase(
        seed: 902, bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n\r\nx".utf8),
        ending: .silence)
    static let cases = Dictionary(uniqueKeysWithValues: [injecting, legit, overlong].map { ($0.seed, $0) })

    /// One call after another: each gets its own answer. (The URLSession cells were read on
    /// Linux: elsewhere they are ``TransportFaultTests/unobserved(_:)``, as in the fault table.)
    @Test(arguments: TransportKind.allCases)
    func oneAfterAnother(_ transport: TransportKind) async throws {
        let outcomes = try await HostileServer.with(cases: { Self.cases[$0] }) { server in
            try await transport.with { client in
                let networker = Networker(transport: client)
                var outcomes: [FaultOutcome] = []
                for seed: UInt64 in [900, 901, 902, 901] {
                    outcomes.append(await FaultExchange.run(server.url(for: seed), with: networker).0.outcome)
                }
                return outcomes
            }
        }
        TransportFaultTests.expecting(pending: false, unobserved: TransportFaultTests.unobserved(transport)) {
            #expect(
                outcomes == [
                    FaultOutcome(status: 204), .success(200, body: "legit!"), .success(200, body: "ok"),
                    .success(200, body: "legit!"),
                ])
        }
    }

    /// 100 rounds of 8 calls at once, half to the injecting response: every call must get
    /// its own answer. URLSession does on Linux (elsewhere its cells are
    /// ``TransportFaultTests/unobserved(_:)``). AsyncHTTPClient 1.37 can lease the
    /// connection to a waiting call before it has read what came after the `204`: that
    /// call then fails (`unsolicitedResponse`, which the transport answers by sending the
    /// call again on another connection) or — seen once in about ten runs, under load —
    /// gets the injected response as its answer, and the call after it the `204`. An
    /// upstream race no transport can close (it needs AsyncHTTPClient's pipeline), kept as
    /// an intermittent known issue.
    @Test(arguments: TransportKind.allCases)
    func concurrentCalls(_ transport: TransportKind) async throws {
        let outcomes = try await HostileServer.with(cases: { Self.cases[$0] }) { server in
            try await transport.with { client in
                let networker = Networker(transport: client)
                var outcomes: [(UInt64, FaultObservation)] = []
                for _ in 0..<100 {
                    await withTaskGroup(of: (UInt64, FaultObservation).self) { group in
                        for index in 0..<8 {
                            let seed: UInt64 = index.isMultiple(of: 2) ? 900 : 901
                            group.addTask { (seed, await FaultExchange.run(server.url(for: seed), with: networker).0) }
                        }
                        for await outcome in group { outcomes.append(outcome) }
                    }
                }
                return outcomes
            }
        }
        let expected: [UInt64: FaultOutcome] = [900: FaultOutcome(status: 204), 901: .success(200, body: "legit!")]
        let failed = outcomes.filter { $0.1.outcome != expected[$0.0] }
        let description = "\(failed.count) of 800 calls did not get their own answer: \(failed.map { "\($0.1)" })"
        #expect(outcomes.count == 800)
        switch transport {
        case .urlSession:
            TransportFaultTests.expecting(pending: false, unobserved: TransportFaultTests.unobserved(transport)) {
                #expect(failed.isEmpty, "\(description)")
            }
        case .asyncHTTPClient:
            withKnownIssue(
                "AsyncHTTPClient leases a connection before reading the bytes after a response", isIntermittent: true
            ) {
                #expect(failed.isEmpty, "\(description)")
            }
        }
    }
}
