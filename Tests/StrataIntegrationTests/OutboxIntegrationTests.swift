import Foundation
import HTTPTypes
import Hummingbird
import Strata
import StrataTestServer
import StrataTestSupport
import StrataTesting
import Testing

/// ``Outbox`` against a server on 127.0.0.1 that applies each `Idempotency-Key` once and
/// can be stopped and started again on its port, on both transports.
@Suite("Outbox against a real server", .isTimed)
struct OutboxIntegrationTests {
    /// What the server applied: each key once, and per group the items in the order it
    /// applied them.
    final class Ledger: Sendable {
        private struct State {
            var timesSeen: [String: Int] = [:]
            var applied: [String: [Int]] = [:]
            var arrivals: [String: [ContinuousClock.Instant]] = [:]
        }
        private let state = Strata.Locked(State())

        /// Applies item `index` of `group` unless `key` was applied already; `201` the
        /// first time, `200` after.
        func apply(key: String, group: String, index: Int) -> HTTPResponse.Status {
            state.withLock { state in
                state.timesSeen[key, default: 0] += 1
                state.arrivals[group, default: []].append(.now)
                guard state.timesSeen[key] == 1 else { return .ok }
                state.applied[group, default: []].append(index)
                return .created
            }
        }

        /// Notes a request of `group` that was refused.
        func refuse(group: String) {
            state.withLock { $0.arrivals[group, default: []].append(.now) }
        }

        /// How many times each key arrived.
        var timesSeen: [String: Int] { state.withLock { $0.timesSeen } }
        /// The items applied, per group, in order.
        var applied: [String: [Int]] { state.withLock { $0.applied } }
        /// When each request of `group` arrived.
        func arrivals(_ group: String) -> [ContinuousClock.Instant] { state.withLock { $0.arrivals[group] ?? [] } }
    }

    struct Note: Codable, Sendable {
        let index: Int
    }

    /// The routes: `POST /outbox/GROUP/INDEX` applies the item once per key; in group
    /// `refused`, item 1 answers `422` with a body; in group `busy`, the first request
    /// answers `429` with `Retry-After: 2`; group `auth` answers `401` without
    /// `Authorization: Bearer fresh`.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func routes(_ ledger: Ledger) -> @Sendable (Router<BasicRequestContext>) -> Void {
        { router in
            router.post("outbox/:group/:index") { request, context in
                let group = context.parameters.get("group") ?? ""
                let index = context.parameters.get("index").flatMap { Int($0) } ?? -1
                guard let key = request.headers[RetryPolicy.idempotencyKey] else {
                    return Response(status: .badRequest)
                }
                if group == "refused", index == 1 {
                    return Response(
                        status: .unprocessableContent,
                        body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"error":"invalid note"}"#)))
                }
                if group == "file" {
                    let bytes = try await request.body.collect(upTo: 1 << 20)
                    guard bytes.readableBytesView.elementsEqual(Self.fileBytes) else {
                        return Response(status: .badRequest)
                    }
                }
                if group == "auth", request.headers[.authorization] != "Bearer fresh" {
                    ledger.refuse(group: group)
                    return Response(status: .unauthorized)
                }
                if group == "busy", ledger.arrivals(group).isEmpty {
                    ledger.refuse(group: group)
                    return Response(status: .tooManyRequests, headers: [.retryAfter: "2"])
                }
                return Response(status: ledger.apply(key: key, group: group, index: index))
            }
        }
    }

    /// A server that is down until ``start(_:)``: its port refuses connections, held
    /// (``ClosedPort``) so that no other test's server takes it meanwhile.
    final class DownServer {
        private var closed: ClosedPort?
        let port: Int
        let base: URL

        init() throws {
            let closed = try ClosedPort()
            self.closed = closed
            port = closed.port
            base = URL(string: "http://127.0.0.1:\(closed.port)")!
        }

        /// Lets the port go and starts a server with `ledger`'s routes on it at once.
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
        func start(_ ledger: Ledger) async throws -> TestServer {
            closed = nil
            return try await TestServer.start(port: port, configure: routes(ledger))
        }
    }

    static func endpoint(_ base: URL, group: String, index: Int) -> Endpoint<Data> {
        Endpoint(
            RequestDescription(
                route: FixedURLRoute(target: base.appendingPathComponent("outbox/\(group)/\(index)")), method: .post,
                parameters: Note(index: index)))
    }

    /// The body the `file` group expects.
    static let fileBytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    static let quickPolicy = OutboxPolicy(initialBackoff: .milliseconds(20), maxBackoff: .milliseconds(100))

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func itemsEnqueuedWhileTheServerIsDownAreAppliedOnceInOrderPerGroup(_ kind: TransportKind) async throws {
        let ledger = Ledger()
        let down = try DownServer()
        let base = down.base
        try await kind.with { transport in
            let networker = Networker(transport: transport)
            let outbox = Outbox(networker: networker, policy: Self.quickPolicy)
            let events = outbox.events
            let groups = ["a", "b", "c", "d"]
            var keys: [String] = []
            for index in 0..<50 {
                for group in groups {
                    keys.append(
                        try outbox.enqueue(Self.endpoint(base, group: group, index: index), group: group).idempotencyKey
                    )
                }
            }
            #expect(Set(keys).count == 200)
            // Every group fails against the closed port and waits.
            await outbox.drain()
            #expect(ledger.timesSeen.isEmpty)
            #expect(try outbox.pending.count == 200)
            let server = try await down.start(ledger)
            await outbox.drain()
            await server.shutdown()
            #expect(try outbox.pending.isEmpty)
            #expect(ledger.timesSeen == Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) }))
            #expect(ledger.applied == Dictionary(uniqueKeysWithValues: groups.map { ($0, Array(0..<50)) }))
            await outbox.close()
            var delivered = 0
            var failed = 0
            for await event in events {
                switch event {
                case .delivered(_, let response, _):
                    #expect(response.status == .created)
                    delivered += 1
                case .attemptFailed(_, .error(let error), _):
                    #expect(error.transportError?.kind == .connectionRefused)
                    failed += 1
                default: continue
                }
            }
            #expect(delivered == 200)
            #expect(failed >= 4)
        }
    }

    @Test(arguments: [OutboxPolicy.DeadLetterAction.continueGroup, .stopGroup])
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aRefusedItemBecomesADeadLetterWithItsBody(_ action: OutboxPolicy.DeadLetterAction) async throws {
        let ledger = Ledger()
        try await TestServer.with(configure: Self.routes(ledger)) { server in
            let policy = OutboxPolicy(
                initialBackoff: .milliseconds(20), maxBackoff: .milliseconds(100), deadLetterAction: action)
            try await TransportKind.asyncHTTPClient.with { transport in
                let outbox = Outbox(networker: Networker(transport: transport), policy: policy)
                for index in 0..<3 {
                    try outbox.enqueue(Self.endpoint(server.baseURL, group: "refused", index: index), group: "refused")
                }
                await outbox.drain()
                let letters = try outbox.deadLetters
                #expect(letters.map(\.item.path) == ["/outbox/refused/1"])
                #expect(letters.first?.status == 422)
                #expect(
                    letters.first.map { String(decoding: $0.responseBody, as: UTF8.self) }
                        == #"{"error":"invalid note"}"#)
                switch action {
                case .continueGroup:
                    #expect(ledger.applied["refused"] == [0, 2])
                    #expect(try outbox.pending.isEmpty)
                case .stopGroup:
                    #expect(ledger.applied["refused"] == [0])
                    #expect(try outbox.pending.map(\.path) == ["/outbox/refused/2"])
                    // Discarding the dead letter lets the group go on.
                    try outbox.discard(deadLetter: try #require(letters.first).id)
                    await outbox.drain()
                    #expect(ledger.applied["refused"] == [0, 2])
                    #expect(try outbox.deadLetters.isEmpty)
                }
                await outbox.close()
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aTooManyRequestsAnswerWaitsItsRetryAfter(_ kind: TransportKind) async throws {
        let ledger = Ledger()
        try await TestServer.with(configure: Self.routes(ledger)) { server in
            try await kind.with { transport in
                // The client's own retry step stays out: the outbox waits.
                let outbox = Outbox(networker: Networker(transport: transport), policy: Self.quickPolicy)
                let events = outbox.events
                let item = try outbox.enqueue(Self.endpoint(server.baseURL, group: "busy", index: 0), group: "busy")
                var waits: [Duration] = []
                for await event in events {
                    if case .attemptFailed(_, .response(let response, _), let wait) = event {
                        #expect(response.status == .tooManyRequests)
                        waits.append(wait)
                    }
                    if case .delivered(let delivered, _, _) = event {
                        #expect(delivered.id == item.id)
                        break
                    }
                }
                // The policy's backoff is at most 100 ms; the server asked for 2 s, and got it.
                #expect(waits == [.seconds(2)])
                let arrivals = ledger.arrivals("busy")
                #expect(arrivals.count == 2)
                if arrivals.count == 2 { #expect(arrivals[1] - arrivals[0] >= .milliseconds(1900)) }
                #expect(ledger.applied["busy"] == [0])
                await outbox.close()
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aStaleTokenIsRefreshedOnceAndDeliveryGoesOn(_ kind: TransportKind) async throws {
        let ledger = Ledger()
        let refreshes = Strata.Locked(0)
        let provider = BearerTokenProvider(BearerToken("stale")) { _ in
            refreshes.withLock { $0 += 1 }
            return BearerToken("fresh")
        }
        try await TestServer.with(configure: Self.routes(ledger)) { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport, middleware: [AuthenticationMiddleware(provider)])
                let outbox = Outbox(networker: networker, policy: Self.quickPolicy, startsPaused: true)
                var keys: [String] = []
                for index in 0..<3 {
                    keys.append(
                        try outbox.enqueue(Self.endpoint(server.baseURL, group: "auth", index: index), group: "auth")
                            .idempotencyKey)
                }
                await outbox.drain()
                #expect(refreshes.withLock { $0 } == 1)
                #expect(ledger.applied["auth"] == [0, 1, 2])
                // The first attempt with the stale token, then each item once with the fresh one.
                #expect(ledger.arrivals("auth").count == 4)
                #expect(ledger.timesSeen == Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) }))
                #expect(try outbox.pending.isEmpty)
                #expect(try outbox.deadLetters.isEmpty)
                await outbox.close()
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aNetworkThatComesBackWakesTheOutboxAtOnce(_ kind: TransportKind) async throws {
        let ledger = Ledger()
        let down = try DownServer()
        let base = down.base
        try await kind.with { transport in
            let reachability = Reachability(isReachable: false)
            // Backoffs of an hour: only the reachability's wake-up can bring the item out.
            let policy = OutboxPolicy(
                initialBackoff: .seconds(3600), maxBackoff: .seconds(3600), isReachable: { reachability.isReachable })
            let outbox = Outbox(networker: Networker(transport: transport), policy: policy, startsPaused: true)
            reachability.wakes(outbox)
            let events = outbox.events
            let item = try outbox.enqueue(Self.endpoint(base, group: "g", index: 0), group: "g")
            await outbox.drain()
            #expect(try outbox.pending.map(\.id) == [item.id])
            let server = try await down.start(ledger)
            reachability.update(isReachable: true)
            let delivered = await Self.firstDelivery(in: events, within: .seconds(20))
            await server.shutdown()
            #expect(delivered == item.id)
            #expect(ledger.applied["g"] == [0])
            #expect(try outbox.pending.isEmpty)
            await outbox.close()
        }
    }

    /// The first item `events` says was delivered, or `nil` when none is within `limit`.
    static func firstDelivery(in events: AsyncStream<OutboxEvent>, within limit: Duration) async -> UUID? {
        await withTaskGroup(of: UUID?.self) { group in
            group.addTask {
                for await event in events {
                    if case .delivered(let item, _, _) = event { return item.id }
                }
                return nil
            }
            group.addTask {
                try? await Deadline.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aFileBodyIsReadWhenSentAndAMissingFileIsADeadLetter() async throws {
        let ledger = Ledger()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-outbox-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = directory.appendingPathComponent("photo.bin")
        let gone = directory.appendingPathComponent("gone.bin")
        try Data(Self.fileBytes).write(to: photo)
        try Data(Self.fileBytes).write(to: gone)
        try await TestServer.with(configure: Self.routes(ledger)) { server in
            try await TransportKind.asyncHTTPClient.with { transport in
                let outbox = Outbox(
                    networker: Networker(transport: transport), policy: Self.quickPolicy, startsPaused: true)
                for (index, file) in [photo, gone].enumerated() {
                    let url = server.baseURL.appendingPathComponent("outbox/file/\(index)")
                    try outbox.enqueue(
                        Endpoint<Data>(
                            RequestDescription(route: FixedURLRoute(target: url), method: .post, body: .file(file))),
                        group: "file")
                }
                try FileManager.default.removeItem(at: gone)
                #expect(try outbox.pending.map(\.bodyFile) == [photo, gone])
                #expect(try outbox.pending.map(\.body) == [nil, nil])
                await outbox.drain()
                #expect(ledger.applied["file"] == [0])
                let letters = try outbox.deadLetters
                #expect(letters.map(\.item.path) == ["/outbox/file/1"])
                #expect(letters.first?.reason.hasPrefix("the body's file: ") == true)
                await outbox.close()
            }
        }
    }

    @Test func aFullOutboxRefusesTyped() throws {
        let store = MemoryOutboxStore(limits: OutboxLimits(maxItems: 2))
        let outbox = Outbox(
            networker: Networker(transport: MockTransport()), store: store, startsPaused: true)
        let base = URL(string: "http://127.0.0.1:9")!
        try outbox.enqueue(Self.endpoint(base, group: "g", index: 0))
        try outbox.enqueue(Self.endpoint(base, group: "g", index: 1))
        #expect(throws: OutboxError.full(limits: OutboxLimits(maxItems: 2))) {
            try outbox.enqueue(Self.endpoint(base, group: "g", index: 2))
        }
        #expect(try outbox.pending.map(\.path) == ["/outbox/g/0", "/outbox/g/1"])
    }
}
