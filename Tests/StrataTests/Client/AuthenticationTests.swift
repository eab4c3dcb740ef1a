import Foundation
import HTTPTypes
import Logging
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// A server inside a transport: `200` with `ok <Authorization>` for `Authorization: Bearer
/// <accepted token>`, `401` otherwise. It records the `Authorization` field of every request
/// as it arrives, then runs `hold` (to keep a request in flight), then decides.
final class TokenCheckingTransport: Transport {
    private let accepted: String?
    private let seenFields = Locked<[String]>([])
    private let hold: @Sendable (HTTPRequest) async -> Void

    init(accepting token: String?, hold: @escaping @Sendable (HTTPRequest) async -> Void = { _ in }) {
        self.accepted = token
        self.hold = hold
    }

    /// The `Authorization` field of every request, in arrival order.
    var seen: [String] { seenFields.withLock { $0 } }

    func send(_ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?) async throws -> (
        HTTPResponse, MessageBody?
    ) {
        _ = try await body?.collect(upTo: 1 << 20)
        let field = request.headerFields[.authorization] ?? "none"
        seenFields.withLock { $0.append(field) }
        await hold(request)
        guard let accepted, field == "Bearer \(accepted)" else {
            return (HTTPResponse(status: .unauthorized), MessageBody("unauthorized"))
        }
        return (HTTPResponse(status: .ok), MessageBody("ok \(field)"))
    }
}

/// A provider of bearer token strings that counts its refreshes and hands out `token-1`,
/// `token-2`…, or fails with `failure`; each refresh first runs `gate`.
struct CountingProvider: CredentialProvider {
    var initial = "stale"
    var failure: (any Error)?
    var gate: @Sendable () async -> Void = {}
    let refreshCount = Locked(0)
    let rejectedTokens = Locked<[String]>([])

    var refreshes: Int { refreshCount.withLock { $0 } }

    func currentCredential() async throws -> String { initial }

    func refresh(_ rejected: String) async throws -> String {
        rejectedTokens.withLock { $0.append(rejected) }
        let number = refreshCount.withLock { count in
            count += 1
            return count
        }
        await gate()
        if let failure { throw failure }
        return "token-\(number)"
    }
}

enum RefreshDenied: Error, Equatable {
    case denied
}

/// One-shot signals for tests: `wait()` returns once `signal()` was called, before or after.
final class TestSignal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    func signal() { continuation.finish() }

    func wait() async {
        for await _ in stream {}
    }
}

@Suite(.isTimed) struct AuthenticationTests {
    static func send(
        _ transport: some Transport,
        auth: some Middleware,
        path: String = "/x",
        timeout: Duration? = .seconds(60),
        logger: Logger? = nil
    ) async throws(StrataError) -> String {
        var configuration = Networker.Configuration()
        configuration.timeout = timeout
        if let logger { configuration.logger = logger }
        return try await Networker(transport: transport, middleware: [auth], configuration: configuration)
            .send(Endpoint<String>(RequestDescription(route: FixedRoute("http://a.test" + path))))
    }

    @Test func theCredentialGoesOutAsABearerToken() async throws {
        let transport = TokenCheckingTransport(accepting: "stale")
        let provider = CountingProvider()
        let value = try await Self.send(transport, auth: AuthenticationMiddleware(provider))
        #expect(value == "ok Bearer stale")
        #expect(transport.seen == ["Bearer stale"])
        #expect(provider.refreshes == 0)
    }

    @Test func anExpiredTokenIsRefreshedBeforeItIsSent() async throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let refreshes = Locked<[BearerToken]>([])
        let provider = BearerTokenProvider(BearerToken("old", expiresAt: now), now: { now }) { rejected in
            refreshes.withLock { $0.append(rejected) }
            return BearerToken("new", expiresAt: now + 3600)
        }
        let transport = TokenCheckingTransport(accepting: "new")
        let auth = AuthenticationMiddleware(provider)
        #expect(try await Self.send(transport, auth: auth) == "ok Bearer new")
        #expect(try await Self.send(transport, auth: auth) == "ok Bearer new")
        #expect(refreshes.withLock { $0 } == [BearerToken("old", expiresAt: now)])
        #expect(transport.seen == ["Bearer new", "Bearer new"])
    }

    @Test func a401IsFollowedByOneRefreshAndOneRetryWithTheNewToken() async throws {
        let transport = TokenCheckingTransport(accepting: "token-1")
        let provider = CountingProvider()
        let log = EventLog()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(log: log) }
        let value = try await Self.send(transport, auth: AuthenticationMiddleware(provider), logger: logger)
        #expect(value == "ok Bearer token-1")
        #expect(transport.seen == ["Bearer stale", "Bearer token-1"])
        #expect(provider.refreshes == 1)
        #expect(provider.rejectedTokens.withLock { $0 } == ["stale"])
        let refreshed = log.all.filter { $0.hasPrefix("info credential refreshed") }
        #expect(refreshed.count == 1)
        #expect(refreshed.first?.contains("strata.auth.generation=2") == true)
    }

    @Test func aSecond401IsReturnedNotRetriedAgain() async throws {
        let transport = TokenCheckingTransport(accepting: nil)
        let provider = CountingProvider()
        let error = await #expect(throws: StrataError.self) {
            try await Self.send(transport, auth: AuthenticationMiddleware(provider))
        }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.status?.code == 401)
        #expect(error?.bodySnippet == "unauthorized")
        #expect(transport.seen == ["Bearer stale", "Bearer token-1"])
        #expect(provider.refreshes == 1)
    }

    @Test func aBodyThatCannotBeSentAgainGetsItsOwn401AndTheNextRequestTheNewToken() async throws {
        let transport = TokenCheckingTransport(accepting: "token-1")
        let provider = CountingProvider()
        let auth = AuthenticationMiddleware(provider)
        let stream = MessageBody(
            length: 4,
            streaming: AsyncStream {
                $0.yield(Data("data".utf8))
                $0.finish()
            })
        let (response, body) = try await auth.intercept(
            HTTPRequest(method: .put, url: URL(string: "http://a.test/x")!), body: stream, context: MiddlewareContext()
        ) { request, body, _ in try await transport.send(request, body: body, deadline: nil) }
        #expect(response.status.code == 401)
        #expect(await body?.prefix(100) == Data("unauthorized".utf8))
        #expect(transport.seen == ["Bearer stale"])
        // The refresh the 401 started serves the next request.
        #expect(try await Self.send(transport, auth: auth) == "ok Bearer token-1")
        #expect(transport.seen == ["Bearer stale", "Bearer token-1"])
        #expect(provider.refreshes == 1)
    }

    @Test func theRefreshWindowBlocksTheFourthRefreshUntilTheIntervalPassed() async throws {
        let transport = TokenCheckingTransport(accepting: nil)
        let provider = CountingProvider()
        let clock = ManualClock()
        let auth = AuthenticationMiddleware(provider, maxRefreshes: 3, per: .seconds(60), now: { clock.now })
        for round in 1...4 {
            let error = await #expect(throws: StrataError.self) { try await Self.send(transport, auth: auth) }
            #expect(error?.status?.code == 401)
            #expect(provider.refreshes == min(round, 3))
            clock.advance(by: .seconds(10))
        }
        // 3 rounds of 401, refresh, 401; then one 401 returned without a refresh.
        #expect(
            transport.seen == [
                "Bearer stale", "Bearer token-1", "Bearer token-1", "Bearer token-2",
                "Bearer token-2", "Bearer token-3", "Bearer token-3",
            ])
        clock.advance(by: .seconds(30))  // 70 s after the first refresh
        await #expect(throws: StrataError.self) { try await Self.send(transport, auth: auth) }
        #expect(provider.refreshes == 4)
        #expect(transport.seen.suffix(2) == ["Bearer token-3", "Bearer token-4"])
    }

    @Test func aFailedRefreshFailsTheRequestAsTheMiddlewaresError() async throws {
        let transport = TokenCheckingTransport(accepting: "token-1")
        let provider = CountingProvider(failure: RefreshDenied.denied)
        let error = await #expect(throws: StrataError.self) {
            try await Self.send(transport, auth: AuthenticationMiddleware(provider))
        }
        #expect(error?.kind == .middleware)
        #expect(error?.middleware == "AuthenticationMiddleware<CountingProvider>")
        #expect(error?.underlying as? RefreshDenied == .denied)
        #expect(transport.seen == ["Bearer stale"])
        #expect(provider.refreshes == 1)
    }

    @Test func aRefreshErrorThatIsAStrataErrorIsStillReportedAsTheMiddlewares() async throws {
        let inner = StrataError(.transport, underlying: TransportError(.connectionRefused))
        let provider = CountingProvider(failure: inner)
        let error = await #expect(throws: StrataError.self) {
            try await Self.send(TokenCheckingTransport(accepting: nil), auth: AuthenticationMiddleware(provider))
        }
        #expect(error?.kind == .middleware)
        #expect((error?.underlying as? StrataError)?.kind == .transport)
    }

    @Test func aRequestRejectedWithAnOlderTokenRetriesWithTheCurrentOneWithoutRefreshing() async throws {
        let held = TestSignal()
        let release = TestSignal()
        let transport = TokenCheckingTransport(accepting: "token-1") { request in
            guard request.path == "/held" else { return }
            held.signal()
            await release.wait()
        }
        let provider = CountingProvider()
        let auth = AuthenticationMiddleware(provider)
        let first = Task { try await Self.send(transport, auth: auth, path: "/held") }
        await held.wait()  // the first request is at the server with "stale"
        #expect(try await Self.send(transport, auth: auth) == "ok Bearer token-1")
        release.signal()
        #expect(try await first.value == "ok Bearer token-1")
        #expect(provider.refreshes == 1)
        #expect(transport.seen == ["Bearer stale", "Bearer stale", "Bearer token-1", "Bearer token-1"])
    }

    /// The call whose 401 starts the refresh records it; the next call, with the new token, does not.
    @Test func theCallThatStartsARefreshRecordsIt() async throws {
        let transport = TokenCheckingTransport(accepting: "token-1")
        let networker = Networker(transport: transport, middleware: [AuthenticationMiddleware(CountingProvider())])
        let endpoint = Endpoint<String>(RequestDescription(route: FixedRoute("http://a.test/x")))
        #expect(try await networker.response(for: endpoint).credentialRefreshes == 1)
        #expect(try await networker.response(for: endpoint).credentialRefreshes == nil)
    }

    @Test func concurrent401sShareOneRefresh() async throws {
        let arrived = Locked(0)
        let allArrived = TestSignal()
        let transport = TokenCheckingTransport(accepting: "token-1") { request in
            guard request.headerFields[.authorization] == "Bearer stale" else { return }
            if arrived.withLock({
                $0 += 1
                return $0
            }) == 20 {
                allArrived.signal()
            }
            await allArrived.wait()
        }
        let provider = CountingProvider()
        let auth = AuthenticationMiddleware(provider)
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await Self.send(transport, auth: auth) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: "ok Bearer token-1", count: 20))
        #expect(provider.refreshes == 1)
        #expect(transport.seen.filter { $0 == "Bearer stale" }.count == 20)
        #expect(transport.seen.filter { $0 == "Bearer token-1" }.count == 20)
    }

    @Test func aCancelledWaiterStopsAtOnceAndTheRefreshGoesOnForTheOthers() async throws {
        let refreshStarted = TestSignal()
        let finishRefresh = TestSignal()
        let provider = CountingProvider(gate: {
            refreshStarted.signal()
            await finishRefresh.wait()
        })
        let transport = TokenCheckingTransport(accepting: "token-1")
        let auth = AuthenticationMiddleware(provider)
        let waiting = Task { try await Self.send(transport, auth: auth) }
        await refreshStarted.wait()
        waiting.cancel()
        let error = await #expect(throws: StrataError.self) { try await waiting.value }
        #expect(error?.kind == .cancelled)
        finishRefresh.signal()
        #expect(try await Self.send(transport, auth: auth) == "ok Bearer token-1")
        #expect(provider.refreshes == 1)
        #expect(transport.seen == ["Bearer stale", "Bearer token-1"])
    }

    @Test func waitingForARefreshEndsAtTheDeadline() async throws {
        let finishRefresh = TestSignal()
        let provider = CountingProvider(gate: { await finishRefresh.wait() })
        let auth = AuthenticationMiddleware(provider)
        let start = ContinuousClock.now
        let error = await #expect(throws: StrataError.self) {
            try await Self.send(TokenCheckingTransport(accepting: "token-1"), auth: auth, timeout: .milliseconds(300))
        }
        #expect(error?.isTimeout == true, "\(String(describing: error))")
        // Without the deadline the wait would never end (the refresh is let go only below);
        // under ThreadSanitizer on a loaded machine a 300 ms deadline has ended after 9 s.
        #expect(ContinuousClock.now - start < .seconds(30))
        // On a loaded machine the deadline can pass before the 401 arrives and the refresh
        // starts: do not wait for it, only let it finish whenever it runs.
        finishRefresh.signal()
    }

    @Test func aWaiterOutsideANetworkerStopsAtItsContextDeadline() async throws {
        let finishRefresh = TestSignal()
        let provider = CountingProvider(gate: { await finishRefresh.wait() })
        let auth = AuthenticationMiddleware(provider)
        let transport = TokenCheckingTransport(accepting: "token-1")
        let context = MiddlewareContext(deadline: .now + .milliseconds(200))
        // The step reports the deadline as a timeout, as the waiting line does: the call
        // (here, whoever called the step) ends as its timeout.
        let error = await #expect(throws: TransportError.self) {
            _ = try await auth.intercept(
                HTTPRequest(method: .get, url: URL(string: "http://a.test/x")!), body: nil,
                context: context
            ) { request, body, _ in
                try await transport.send(request, body: body, deadline: nil)
            }
        }
        #expect(error?.kind == .timedOut)
        finishRefresh.signal()
    }
}
