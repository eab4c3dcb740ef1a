import Foundation
import HTTPTypes
import StrataTesting
import Testing

@testable import Strata
@testable import StrataCore

/// ``RateLimitMiddleware`` over the mock transport: the server's word read from every
/// spelling, the bucket's arithmetic, and the queue's bounds. Timing against a real server
/// is in `RateLimitIntegrationTests`.
@Suite struct RateLimitTests {
    static func response(_ fields: [(String, String)], status: HTTPResponse.Status = .ok) -> HTTPResponse {
        var response = HTTPResponse(status: status)
        for (name, value) in fields {
            response.headerFields.append(HTTPField(name: HTTPField.Name(name)!, value: value))
        }
        return response
    }

    /// A mock that answers every request with its authority.
    static func transport() -> MockTransport {
        let transport = MockTransport()
        transport.stub { request, _ in MockResponse(body: Data((request.authority ?? "").utf8)) }
        return transport
    }

    /// A client with `limit` over ``transport()``.
    static func client(_ limit: RateLimitMiddleware) -> (MockTransport, Networker) {
        let transport = transport()
        return (transport, Networker(transport: transport, middleware: [limit]))
    }

    static let endpoint = Endpoint<String>(RequestDescription(route: FixedRoute("https://a.example/x")))

    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(arguments: [
        // Up to draft 07.
        ([("RateLimit", "limit=5, remaining=0, reset=3")], ServerRateLimit?.some(.init(remaining: 0, reset: 3))),
        ([("RateLimit", "limit=100, remaining=42, reset=60")], .some(.init(remaining: 42, reset: 60))),
        (
            [("RateLimit-Limit", "5"), ("RateLimit-Remaining", "2"), ("RateLimit-Reset", "7")],
            .some(.init(remaining: 2, reset: 7))
        ),
        // The structured form, the tightest policy winning; the policy's window as the reset.
        ([("RateLimit", #""default";r=0;t=3"#)], .some(.init(remaining: 0, reset: 3))),
        ([("RateLimit", #""burst";r=3;t=10, "daily";r=100;t=3600"#)], .some(.init(remaining: 3, reset: 10))),
        (
            [("RateLimit", #""default";r=4"#), ("RateLimit-Policy", #""default";q=100;w=60"#)],
            .some(.init(remaining: 4, reset: 60))
        ),
        // Nothing usable.
        ([("RateLimit", "remaining=-1, reset=x")], nil),
        ([("RateLimit", "r=;t=;;,,==")], nil),
        ([("RateLimit-Remaining", "99999999999999999999")], nil),
        ([], nil),
    ])
    func theRateLimitFieldsInEverySpelling(fields: [(String, String)], expected: ServerRateLimit?) {
        #expect(ServerRateLimit(Self.response(fields), now: Self.now) == expected)
    }

    @Test(arguments: [
        (HTTPResponse.Status.tooManyRequests, "2", Duration?.some(.seconds(2))),
        (.serviceUnavailable, "Tue, 14 Nov 2023 22:13:25 GMT", .some(.seconds(5))),
        (.ok, "2", nil),  // a Retry-After on a success is no pause
        (.tooManyRequests, "soon", nil),
    ])
    func retryAfterOnA429OrA503Pauses(status: HTTPResponse.Status, value: String, pause: Duration?) {
        let server = ServerRateLimit(Self.response([("Retry-After", value)], status: status), now: Self.now)
        #expect(server?.pause == pause)
    }

    @Test func aBurstGoesAtOnceAndNoMore() async throws {
        let transport = Self.transport()
        // A token every 10 s: the burst alone lets calls through within the test.
        let limit = RateLimitMiddleware(requestsPerSecond: 0.1, burst: 3)
        let networker = Networker(transport: transport, middleware: [limit])
        let endpoint = Endpoint<String>(RequestDescription(route: FixedRoute("https://a.example/x")))
        for _ in 0..<3 { #expect(try await networker.send(endpoint) == "a.example") }
        let error = await #expect(throws: StrataError.self) {
            try await networker.send(endpoint.timeout(.milliseconds(50)))
        }
        #expect(error?.isTimeout == true)
        #expect(transport.requests.count == 3)
    }

    @Test func afterTheBurstCallsGoAtTheRate() async throws {
        let limit = RateLimitMiddleware(requestsPerSecond: 20, burst: 1)
        let (transport, networker) = Self.client(limit)
        let endpoint = Self.endpoint
        let start = ContinuousClock.now
        for _ in 0..<5 { #expect(try await networker.send(endpoint) == "a.example") }
        // One from the burst, then four at 20 a second: 4 × 50 ms at least.
        #expect(start.duration(to: .now) >= .milliseconds(195))
        #expect(transport.requests.count == 5)
        #expect(limit.limiter.queued == 0)
    }

    @Test func aFullQueueFailsAtOnceTyped() async throws {
        let limit = RateLimitMiddleware(requestsPerSecond: 0.1, burst: 1, queueLimit: 1)
        let (transport, networker) = Self.client(limit)
        let endpoint = Self.endpoint
        #expect(try await networker.send(endpoint) == "a.example")
        let queued = Task { try await networker.send(endpoint) }
        while limit.limiter.queued == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let error = await #expect(throws: StrataError.self) { try await networker.send(endpoint) }
        #expect(error?.kind == .middleware)
        #expect(error?.underlying as? RateLimitError == .queueFull(limit: 1))
        queued.cancel()
        let cancelled = await #expect(throws: StrataError.self) { try await queued.value }
        #expect(cancelled?.kind == .cancelled)
        #expect(limit.limiter.queued == 0)
        #expect(transport.requests.count == 1)
    }

    @Test func aQueuedCallPastItsDeadlineTimesOutWithoutReachingTheTransport() async throws {
        let limit = RateLimitMiddleware(requestsPerSecond: 0.1, burst: 1)
        let (transport, networker) = Self.client(limit)
        let endpoint = Self.endpoint
        #expect(try await networker.send(endpoint) == "a.example")
        let start = ContinuousClock.now
        let error = await #expect(throws: StrataError.self) {
            try await networker.send(endpoint.timeout(.milliseconds(100)))
        }
        #expect(error?.isTimeout == true)
        #expect(start.duration(to: .now) >= .milliseconds(100))
        #expect(transport.requests.count == 1)
        #expect(limit.limiter.queued == 0)
    }

    @Test func anotherPartitionHasItsOwnBucket() async throws {
        let transport = Self.transport()
        let limit = RateLimitMiddleware(requestsPerSecond: 0.1, burst: 1)
        let networker = Networker(transport: transport, middleware: [limit])
        let a = Endpoint<String>(RequestDescription(route: FixedRoute("https://a.example/x")))
        let b = Endpoint<String>(RequestDescription(route: FixedRoute("https://b.example/x")))
        #expect(try await networker.send(a) == "a.example")
        #expect(try await networker.send(b) == "b.example")  // at once: a.example's empty bucket is not b's
        let error = await #expect(throws: StrataError.self) { try await networker.send(a.timeout(.milliseconds(50))) }
        #expect(error?.isTimeout == true)
    }
}

extension ServerRateLimit {
    /// What the fields say, in seconds.
    init(remaining: Int, reset: Int) {
        self.init(pause: nil, remaining: remaining, reset: .seconds(reset))
    }
}

extension RateLimitTests {
    @Test(arguments: [0, -5, .nan, .infinity, 1e-300, 1e300])
    func anyRateAndPauseAreKeptInRange(rate: Double) async throws {
        let limit = RateLimitMiddleware(requestsPerSecond: rate, burst: 1, maximumPause: .seconds(Int64.max))
        #expect((0.001...1e9).contains(limit.requestsPerSecond))
        #expect(limit.maximumPause == .seconds(86_400))
        let transport = Self.transport()
        let networker = Networker(transport: transport, middleware: [limit])
        let endpoint = Endpoint<String>(RequestDescription(route: FixedRoute("https://a.example/x")))
        #expect(try await networker.send(endpoint) == "a.example")
        guard limit.requestsPerSecond < 1e9 else {
            // A token every nanosecond: the next call goes at once.
            #expect(try await networker.send(endpoint) == "a.example")
            return
        }
        // The next token is due within 1,000 s: the wait is armed, and ends at the deadline.
        let error = await #expect(throws: StrataError.self) {
            try await networker.send(endpoint.timeout(.milliseconds(20)))
        }
        #expect(error?.isTimeout == true)
    }
}

extension RateLimitTests {
    /// Rates whose token times fall between nanoseconds: each queued call is woken when its
    /// token is due and finds it whole (a wake-up rounded down found it a hair short, and
    /// waited again for ever smaller fractions until the call's deadline).
    @Test(arguments: [3.0, 7.0, 13.0, 29.0, 97.0])
    func queuedCallsAtAnyRateAreWokenWhenTheirTokenIsDue(rate: Double) async throws {
        let transport = Self.transport()
        let networker = Networker(
            transport: transport, middleware: [RateLimitMiddleware(requestsPerSecond: rate, burst: 1)])
        let endpoint = Endpoint<String>(RequestDescription(route: FixedRoute("https://a.example/x")))
            .timeout(.seconds(10))
        for _ in 0..<4 { #expect(try await networker.send(endpoint) == "a.example") }
        #expect(transport.requests.count == 4)
    }
}
