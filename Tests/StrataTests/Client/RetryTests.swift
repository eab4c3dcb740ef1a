import Foundation
import HTTPTypes
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// A transport that plays a script of outcomes, one per request, and records each request.
final class ScriptedTransport: Transport {
    enum Step: Sendable {
        case status(Int, retryAfter: String? = nil)
        case failure(TransportError.Kind)
    }

    private let script: Locked<[Step]>
    private let log = Locked<[HTTPRequest]>([])

    init(_ steps: [Step]) {
        self.script = Locked(steps)
    }

    var requests: [HTTPRequest] { log.withLock { $0 } }

    func send(_ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?) async throws -> (
        HTTPResponse, MessageBody?
    ) {
        _ = try await body?.collect(upTo: 1 << 20)
        log.withLock { $0.append(request) }
        let step = script.withLock { $0.isEmpty ? .status(200) : $0.removeFirst() }
        switch step {
        case .status(let code, let retryAfter):
            var fields = HTTPFields()
            fields[.retryAfter] = retryAfter
            return (HTTPResponse(status: .init(code: code), headerFields: fields), MessageBody("status \(code)"))
        case .failure(let kind):
            throw TransportError(kind)
        }
    }
}

@Suite struct RetryTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// A retry step whose waits are recorded instead of slept.
    static func middleware(_ policy: RetryPolicy = RetryPolicy(), waits: Locked<[Duration]>) -> RetryMiddleware {
        RetryMiddleware(policy: policy, sleep: { duration in waits.withLock { $0.append(duration) } }, now: { now })
    }

    static func response(
        _ transport: ScriptedTransport,
        method: HTTPRequest.Method = .get,
        body: RequestBody? = nil,
        rule: RetryRule? = nil,
        timeout: Duration? = .seconds(60),
        retry: RetryMiddleware,
        extra: [any Middleware] = []
    ) async throws(StrataError) -> EndpointResponse<String> {
        var description = RequestDescription(route: FixedRoute("http://a.test/x"), method: method)
        description.body = body
        var endpoint = Endpoint<String>(description)
        endpoint.retry = rule
        endpoint.timeout = timeout
        return try await Networker(transport: transport, middleware: [retry] + extra).response(for: endpoint)
    }

    @Test func retryableStatusesAreRetriedWithJitteredBackoff() async throws {
        let transport = ScriptedTransport([.status(503), .status(502)])
        let waits = Locked<[Duration]>([])
        let value = try await Self.response(transport, retry: Self.middleware(waits: waits))
        #expect(value.value == "status 200")
        #expect(transport.requests.count == 3)
        let slept = waits.withLock { $0 }
        #expect(slept.count == 2)
        #expect(slept[0] >= .zero && slept[0] <= .milliseconds(100))
        #expect(slept[1] >= .zero && slept[1] <= .milliseconds(200))
    }

    @Test func backoffStaysWithinItsCeilingAndCap() {
        let policy = RetryPolicy(initialBackoff: .milliseconds(100), maxBackoff: .milliseconds(350))
        var generator = SplitMix64(seed: 42)
        for attempt in 1...40 {
            let ceiling = min(.milliseconds(100) * (1 << min(attempt - 1, 30)), Duration.milliseconds(350))
            for _ in 0..<50 {
                let wait = policy.backoff(after: attempt, using: &generator)
                #expect(wait >= .zero && wait <= ceiling, "attempt \(attempt): \(wait)")
                let unseeded = policy.backoff(after: attempt)
                #expect(unseeded >= .zero && unseeded <= ceiling, "attempt \(attempt): \(unseeded)")
            }
        }
        // The same seed draws the same waits.
        var first = SplitMix64(seed: 7)
        var second = SplitMix64(seed: 7)
        #expect(
            (1...5).map { policy.backoff(after: $0, using: &first) }
                == (1...5).map { policy.backoff(after: $0, using: &second) })
    }

    @Test(arguments: [400, 401, 404, 409, 422, 501])
    func otherStatusesAreNotRetried(code: Int) async throws {
        let transport = ScriptedTransport([.status(code)])
        let waits = Locked<[Duration]>([])
        let error = await #expect(throws: StrataError.self) {
            try await Self.response(transport, retry: Self.middleware(waits: waits))
        }
        #expect(error?.status?.code == code)
        #expect(transport.requests.count == 1)
        #expect(waits.withLock { $0 }.isEmpty)
    }

    @Test func attemptsRunOutWithTheLastResponse() async throws {
        let transport = ScriptedTransport([.status(503), .status(503), .status(504), .status(200)])
        let waits = Locked<[Duration]>([])
        let error = await #expect(throws: StrataError.self) {
            try await Self.response(transport, retry: Self.middleware(waits: waits))
        }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.status?.code == 504)
        #expect(error?.bodySnippet == "status 504")
        #expect(transport.requests.count == 3)
    }

    @Test func nonIdempotentMethodsAreNotRetried() async throws {
        let transport = ScriptedTransport([.status(503), .status(200)])
        let error = await #expect(throws: StrataError.self) {
            try await Self.response(transport, method: .post, retry: Self.middleware(waits: Locked([])))
        }
        #expect(error?.status?.code == 503)
        #expect(transport.requests.count == 1)
    }

    @Test func anIdempotencyKeyMakesAPostRetryableWithTheSameKeyEachTime() async throws {
        let transport = ScriptedTransport([.status(503), .failure(.connectionLost), .status(201)])
        let value = try await Self.response(
            transport, method: .post, body: .data(Data("order".utf8), contentType: "text/plain"),
            rule: .withIdempotencyKey, retry: Self.middleware(waits: Locked([])))
        #expect(value.value == "status 201")
        let keys = transport.requests.map { $0.headerFields[RetryPolicy.idempotencyKey] }
        #expect(keys.count == 3)
        #expect(keys[0] != nil && UUID(uuidString: keys[0] ?? "") != nil)
        #expect(Set(keys).count == 1)
    }

    @Test func anEndpointCanTurnRetryingOff() async throws {
        let transport = ScriptedTransport([.status(503), .status(200)])
        await #expect(throws: StrataError.self) {
            try await Self.response(transport, rule: .never, retry: Self.middleware(waits: Locked([])))
        }
        #expect(transport.requests.count == 1)
    }

    @Test(arguments: [TransportError.Kind.connectionRefused, .connectionLost, .timedOut])
    func failuresBeforeAnyResponseAreRetried(kind: TransportError.Kind) async throws {
        let transport = ScriptedTransport([.failure(kind), .failure(kind)])
        let value = try await Self.response(transport, retry: Self.middleware(waits: Locked([])))
        #expect(value.value == "status 200")
        #expect(transport.requests.count == 3)
    }

    @Test(arguments: [TransportError.Kind.malformedResponse, .invalidRequest, .tls, .other, .hostNotFound])
    func otherFailuresAreNotRetried(kind: TransportError.Kind) async throws {
        let transport = ScriptedTransport([.failure(kind)])
        let error = await #expect(throws: StrataError.self) {
            try await Self.response(transport, retry: Self.middleware(waits: Locked([])))
        }
        #expect(error?.transportError?.kind == kind)
        #expect(transport.requests.count == 1)
    }

    @Test func retryAfterInSecondsOrAsADateSetsTheWaitWithinTheCap() async throws {
        let date = "Tue, 14 Nov 2023 22:13:25 GMT"  // now + 5 s
        let transport = ScriptedTransport([
            .status(503, retryAfter: "2"), .status(429, retryAfter: date), .status(503, retryAfter: "120"),
        ])
        let waits = Locked<[Duration]>([])
        let policy = RetryPolicy(maxAttempts: 4, maxBackoff: .seconds(10))
        _ = try await Self.response(transport, timeout: nil, retry: Self.middleware(policy, waits: waits))
        #expect(waits.withLock { $0 } == [.seconds(2), .seconds(5), .seconds(10)])
        #expect(transport.requests.count == 4)
    }

    @Test func aWaitPastTheDeadlineEndsTheCallWithTheLastResponse() async throws {
        let transport = ScriptedTransport([.status(503, retryAfter: "5"), .status(200)])
        let waits = Locked<[Duration]>([])
        let error = await #expect(throws: StrataError.self) {
            try await Self.response(transport, timeout: .seconds(2), retry: Self.middleware(waits: waits))
        }
        #expect(error?.status?.code == 503)
        #expect(transport.requests.count == 1)
        #expect(waits.withLock { $0 }.isEmpty)
    }

    @Test func aBodyThatCannotBeReadAgainIsSentOnce() async throws {
        let transport = ScriptedTransport([.status(503), .status(200)])
        let stream = MessageBody(
            length: 4,
            streaming: AsyncStream {
                $0.yield(Data("data".utf8))
                $0.finish()
            })
        let retry = Self.middleware(waits: Locked([]))
        let (response, _) = try await retry.intercept(
            HTTPRequest(method: .put, url: URL(string: "http://a.test/x")!), body: stream, context: MiddlewareContext()
        ) { request, body, _ in try await transport.send(request, body: body, deadline: nil) }
        #expect(response.status.code == 503)
        #expect(transport.requests.count == 1)
    }

    @Test func eachAttemptIsNumberedInTheContext() async throws {
        let transport = ScriptedTransport([.status(500), .status(500)])
        let attempts = Locked<[Int]>([])
        let recorder = ContextRecorder { context in attempts.withLock { $0.append(context.attempt) } }
        _ = try await Self.response(transport, retry: Self.middleware(waits: Locked([])), extra: [recorder])
        #expect(attempts.withLock { $0 } == [1, 2, 3])
    }

    @Test func cancellationEndsAWaitAtOnce() async throws {
        let transport = ScriptedTransport([.status(503, retryAfter: "30")])
        let retry = RetryMiddleware(policy: RetryPolicy(maxBackoff: .seconds(60)))
        let call = Task { try await Self.response(transport, retry: retry) }
        while transport.requests.isEmpty { await Task.yield() }
        try await Task.sleep(for: .milliseconds(50))
        let cancelledAt = ContinuousClock.now
        call.cancel()
        let result = await call.result
        #expect(ContinuousClock.now - cancelledAt < .seconds(5))
        #expect((result.error as? StrataError)?.kind == .cancelled)
        #expect((result.error as? StrataError)?.retry == RetrySummary(attempts: 1, stopReason: .cancelled))
        #expect(transport.requests.count == 1)
    }
}
