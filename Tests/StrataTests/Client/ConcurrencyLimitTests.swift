import Foundation
import HTTPTypes
import StrataTestSupport
import StrataTesting
import Testing

@testable import Strata
@testable import StrataCore

@Suite struct ConcurrencyLimitTests {
    /// A transport that records each request's path and holds it until `release` is told to let it go.
    final class HeldTransport: Transport {
        let arrived = Locked<[String]>([])
        private let gates = Locked<[String: CheckedContinuation<Void, Never>]>([:])
        private let released = Locked<Set<String>>([])
        let status: @Sendable (String, Int) -> HTTPResponse.Status

        init(status: @escaping @Sendable (String, Int) -> HTTPResponse.Status = { _, _ in .ok }) {
            self.status = status
        }

        func send(_ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?) async throws -> (
            HTTPResponse, MessageBody?
        ) {
            let path = request.path ?? ""
            let attempt = arrived.withLock { arrived in
                arrived.append(path)
                return arrived.count { $0 == path }
            }
            await withCheckedContinuation { continuation in
                let now = released.withLock { $0.contains(path) }
                if now { continuation.resume() } else { gates.withLock { $0[path] = continuation } }
            }
            // A streamed body, as a transport's is: the slot is held until it has been read.
            let data = Data(path.utf8)
            let body = MessageBody(length: Int64(data.count)) {
                AsyncStream<Data> { continuation in
                    continuation.yield(data)
                    continuation.finish()
                }
            }
            return (HTTPResponse(status: status(path, attempt)), body)
        }

        /// Lets every request for `path`, now and later, through.
        func release(_ path: String) {
            released.withLock { _ = $0.insert(path) }
            gates.withLock { $0.removeValue(forKey: path) }?.resume()
        }
    }

    static func endpoint(_ path: String, host: String = "a.example") -> Endpoint<String> {
        Endpoint<String>(RequestDescription(route: FixedRoute("http://\(host)\(path)")))
    }

    /// Waits until `condition` holds, checking every millisecond (at most 5 seconds).
    static func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<5000 where !condition() { try await Task.sleep(for: .milliseconds(1)) }
        #expect(condition())
    }

    @Test func aQueuedCallWhoseDeadlinePassesFailsAsTimedOutAndNeverReachesTheTransport() async throws {
        let transport = HeldTransport()
        let limit = ConcurrencyLimitMiddleware(perHost: 1)
        let networker = Networker(transport: transport, middleware: [limit])
        let first = Task { try await networker.send(Self.endpoint("/first")) }
        try await Self.eventually { transport.arrived.withLock { $0 } == ["/first"] }
        let start = ContinuousClock.now
        let error = await #expect(throws: StrataError.self) {
            try await networker.send(Self.endpoint("/second").timeout(.milliseconds(200)))
        }
        #expect(error?.isTimeout == true)
        #expect(ContinuousClock.now - start < .seconds(3))
        #expect(limit.limiter.counts.queued == 0)
        transport.release("/first")
        #expect(try await first.value == "/first")
        #expect(transport.arrived.withLock { $0 } == ["/first"])
        #expect(limit.limiter.counts.inFlight == [:])
    }

    @Test func aCancelledCallLeavesTheQueueAtOnce() async throws {
        let transport = HeldTransport()
        let limit = ConcurrencyLimitMiddleware(perHost: 1)
        let networker = Networker(transport: transport, middleware: [limit])
        let first = Task { try await networker.send(Self.endpoint("/first")) }
        try await Self.eventually { transport.arrived.withLock { $0 } == ["/first"] }
        let second = Task { try await networker.send(Self.endpoint("/second")) }
        try await Self.eventually { limit.limiter.counts.queued == 1 }
        second.cancel()
        let error = await #expect(throws: StrataError.self) { try await second.value }
        #expect(error?.kind == .cancelled)
        #expect(limit.limiter.counts.queued == 0)
        transport.release("/first")
        _ = try await first.value
        #expect(transport.arrived.withLock { $0 } == ["/first"])
    }

    @Test func aFullQueueFailsAtOnceTyped() async throws {
        let transport = HeldTransport()
        let limit = ConcurrencyLimitMiddleware(perHost: 1, queueLimit: 1)
        let networker = Networker(transport: transport, middleware: [limit])
        let first = Task { try await networker.send(Self.endpoint("/first")) }
        try await Self.eventually { transport.arrived.withLock { $0 } == ["/first"] }
        let second = Task { try await networker.send(Self.endpoint("/second")) }
        try await Self.eventually { limit.limiter.counts.queued == 1 }
        let error = await #expect(throws: StrataError.self) { try await networker.send(Self.endpoint("/third")) }
        #expect(error?.kind == .middleware)
        #expect(error?.middleware == "ConcurrencyLimitMiddleware")
        #expect(error?.underlying as? ConcurrencyLimitError == .queueFull(limit: 1))
        transport.release("/first")
        transport.release("/second")
        #expect(try await first.value == "/first")
        #expect(try await second.value == "/second")
        #expect(transport.arrived.withLock { $0 } == ["/first", "/second"])
    }

    @Test func anotherHostIsNotHeldUpAndPriorityGoesFirst() async throws {
        let transport = HeldTransport()
        let limit = ConcurrencyLimitMiddleware(perHost: 1, total: 2)
        let networker = Networker(transport: transport, middleware: [limit])
        let first = Task { try await networker.send(Self.endpoint("/a1")) }
        try await Self.eventually { transport.arrived.withLock { $0 } == ["/a1"] }
        let low = Task { try await networker.send(Self.endpoint("/a2")) }
        try await Self.eventually { limit.limiter.counts.queued == 1 }
        let high = Task { try await networker.send(Self.endpoint("/a3").queuePriority(5)) }
        try await Self.eventually { limit.limiter.counts.queued == 2 }
        // b.example has room: it goes straight through while a.example's calls wait.
        transport.release("/b1")
        #expect(try await networker.send(Self.endpoint("/b1", host: "b.example")) == "/b1")
        transport.release("/a1")
        transport.release("/a3")
        transport.release("/a2")
        _ = try await (first.value, low.value, high.value)
        #expect(transport.arrived.withLock { $0 } == ["/a1", "/b1", "/a3", "/a2"])
    }

    @Test func aRetryWaitsItsTurnAgain() async throws {
        let transport = HeldTransport { path, attempt in path == "/a" && attempt == 1 ? .serviceUnavailable : .ok }
        let limit = ConcurrencyLimitMiddleware(perHost: 1)
        let retry = RetryMiddleware(policy: RetryPolicy(initialBackoff: .milliseconds(1), maxBackoff: .milliseconds(1)))
        let networker = Networker(transport: transport, middleware: [retry, limit])
        let a = Task { try await networker.send(Self.endpoint("/a")) }
        try await Self.eventually { transport.arrived.withLock { $0 } == ["/a"] }
        let b = Task { try await networker.send(Self.endpoint("/b")) }
        try await Self.eventually { limit.limiter.counts.queued == 1 }
        transport.release("/a")
        try await Self.eventually { transport.arrived.withLock { $0 } == ["/a", "/b"] }
        // The retry of /a (after its backoff), behind /b.
        try await Self.eventually { limit.limiter.counts.queued == 1 }
        transport.release("/b")
        #expect(try await a.value == "/a")
        #expect(try await b.value == "/b")
        #expect(transport.arrived.withLock { $0 } == ["/a", "/b", "/a"])
    }

    @Test func aStreamHoldsItsSlotUntilItsBodyEndsOrIsDropped() async throws {
        let transport = HeldTransport()
        for path in ["/stream", "/next", "/dropped", "/last"] { transport.release(path) }
        let limit = ConcurrencyLimitMiddleware(perHost: 1)
        let networker = Networker(transport: transport, middleware: [limit])
        let (_, body) = try await networker.stream(Self.endpoint("/stream"))
        let next = Task { try await networker.send(Self.endpoint("/next")) }
        try await Self.eventually { limit.limiter.counts.queued == 1 }
        #expect(String(decoding: try await body.collect(upTo: 100), as: UTF8.self) == "/stream")
        #expect(try await next.value == "/next")
        do {
            let (_, unread) = try await networker.stream(Self.endpoint("/dropped"))
            #expect(unread.length == 8)
            #expect(limit.limiter.counts.inFlight == ["a.example": 1])
        }
        #expect(try await networker.send(Self.endpoint("/last")) == "/last")
        #expect(limit.limiter.counts.inFlight == [:])
    }

    @Test func theMockTransportIsLimitedToo() async throws {
        let mock = MockTransport()
        let inFlight = Locked((now: 0, most: 0))
        mock.stub(.get, "/mocked") { _, _ in
            inFlight.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            try await Task.sleep(for: .milliseconds(5))
            inFlight.withLock { $0.now -= 1 }
            return .text("hello")
        }
        let limit = ConcurrencyLimitMiddleware(perHost: 2)
        let networker = Networker(transport: mock, middleware: [limit])
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await networker.send(Self.endpoint("/mocked")) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: "hello", count: 20))
        #expect(inFlight.withLock { $0.most } == 2)
        #expect(limit.limiter.counts.inFlight == [:] && limit.limiter.counts.queued == 0)
    }
}
