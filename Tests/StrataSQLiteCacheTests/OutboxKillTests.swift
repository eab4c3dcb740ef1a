import Foundation
import GRDB
import Hummingbird
import Strata
import StrataAsyncHTTPClient
import StrataSQLiteCache
import StrataTestServer
import StrataTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An outbox on SQLite whose process is killed (SIGKILL) again and again while it
/// delivers: no item is lost, and the server applies each exactly once.
@Suite("Outbox killed while it delivers", .serialized, .runsAlone)
struct OutboxKillTests {
    /// The store a child process delivers from; set only in such a child.
    static let storeVariable = "STRATA_OUTBOX_CHILD_STORE"
    static var childStore: String? { ProcessInfo.processInfo.environment[storeVariable] }

    /// Every request the server read, by `Idempotency-Key`, and the keys it applied.
    final class KeyLedger: Sendable {
        private let state = Strata.Locked<(requests: Int, applied: [String: Int])>((0, [:]))

        func arrived() { state.withLock { $0.requests += 1 } }
        func apply(_ key: String) { state.withLock { $0.applied[key, default: 0] += 1 } }
        var requests: Int { state.withLock { $0.requests } }
        var applied: [String: Int] { state.withLock { $0.applied } }
    }

    @Test(.enabled(if: ChildProcess.testBinary != nil && childStore == nil, "needs /proc/self/exe (Linux)"))
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func itemsSurviveTwentyKillsAndAreAppliedOnce() async throws {
        let ledger = KeyLedger()
        let seen = Strata.Locked(Set<String>())
        try await TestServer.with(configure: { router in
            router.post("notes/:index") { request, _ in
                ledger.arrived()
                // Each request takes a little while, so that kills land while requests are out.
                try await Deadline.sleep(for: .milliseconds(3))
                guard let key = request.headers[RetryPolicy.idempotencyKey] else {
                    return Response(status: .badRequest)
                }
                // Applied once per key; a repeated key gets the first answer again.
                if seen.withLock({ $0.insert(key).inserted }) { ledger.apply(key) }
                return Response(status: .created)
            }
        }) { server in
            let path = try SQLiteCacheStoreTests.temporaryPath()
            var keys: [String] = []
            do {
                let store = try SQLiteOutboxStore(path: path)
                let outbox = Outbox(
                    networker: Networker(transport: OutboxStoreTests.NoTransport()), store: store, startsPaused: true)
                for index in 0..<100 {
                    let endpoint = Endpoint<Data>(
                        RequestDescription(
                            route: server.baseURL.absoluteString + "/notes/\(index)", method: .post,
                            parameters: ["n": index]))
                    keys.append(try outbox.enqueue(endpoint, group: "g\(index % 4)").idempotencyKey)
                }
            }
            var kills = 0
            for _ in 0..<20 {
                let target = ledger.requests + Int.random(in: 1...8)
                let (killed, finished) = try await Self.deliverInChild(path, killWhen: { ledger.requests >= target })
                if killed { kills += 1 }
                if finished { break }
            }
            let (killed, _) = try await Self.deliverInChild(path, killWhen: { false })
            #expect(!killed)
            #expect(kills >= 10)
            #expect(ledger.applied == Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) }))
            #expect(ledger.requests >= 100)
            let store = try SQLiteOutboxStore(path: path)
            #expect(try store.pendingItems().isEmpty)
            #expect(try store.deadLetters().isEmpty)
            let check = try await DatabaseQueue(path: path).read {
                try String.fetchOne($0, sql: "PRAGMA integrity_check")
            }
            #expect(check == "ok")
        }
    }

    /// Runs a child that delivers the outbox at `path`, killing it (SIGKILL) as soon as
    /// `killWhen` says so. Returns whether it was killed, and whether it finished first.
    static func deliverInChild(_ path: String, killWhen: @Sendable () -> Bool) async throws -> (Bool, Bool) {
        let executable = try #require(ChildProcess.testBinary)
        let process = ChildProcess.make(
            executable: executable, filter: "OutboxKillTests/deliverTheOutboxOfTheParent",
            environment: [storeVariable: path])
        let running = Task { try await ChildProcess.run(process, timeout: .seconds(60)) }
        var killed = false
        for _ in 0..<60_000 {
            if process.processIdentifier != 0, !process.isRunning { break }
            if process.processIdentifier != 0, killWhen() {
                kill(process.processIdentifier, SIGKILL)
                killed = true
                break
            }
            try await Deadline.sleep(for: .microseconds(500))
        }
        let timedOut = try await running.value
        #expect(!timedOut)
        let finished = process.terminationReason == .exit && process.terminationStatus == 0
        return (killed && process.terminationReason == .uncaughtSignal, finished)
    }

    /// The child's side: delivers what the store holds, then exits.
    @Test(.enabled(if: childStore != nil, "runs only in a child process of itemsSurviveTwentyKillsAndAreAppliedOnce"))
    func deliverTheOutboxOfTheParent() async throws {
        let store = try SQLiteOutboxStore(path: try #require(Self.childStore))
        let transport = AsyncHTTPClientTransport()
        let outbox = Outbox(
            networker: Networker(transport: transport), store: store,
            policy: OutboxPolicy(initialBackoff: .milliseconds(10), maxBackoff: .milliseconds(50)))
        await outbox.drain()
        await outbox.close()
        try await transport.shutdown()
        #expect(try store.pendingItems().isEmpty)
    }
}
