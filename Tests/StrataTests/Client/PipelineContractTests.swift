import Foundation
import HTTPTypes
import Logging
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// The pipeline contract, pinned: the client owns the deadline, every stage says what
/// failed, a failed response keeps its body, and one body rule holds everywhere.
@Suite struct PipelineContractTests {
    static let auth = RequestDescription(route: RegistrationRoute.auth)

    // MARK: The client owns the deadline

    /// A transport that ignores its deadline and cancellation alike, and never returns.
    struct NeverReturningTransport: Transport {
        let started: EventLog
        func send(_ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?) async throws -> (
            HTTPResponse, MessageBody?
        ) {
            started.append("sent")
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }  // never resumed
            return (HTTPResponse(status: .ok), nil)
        }
    }

    @Test func transportThatNeverReturnsIsStoppedByTheClientDeadline() async {
        var configuration = Networker.Configuration()
        configuration.timeout = .seconds(1)
        let log = EventLog()
        let networker = Networker(transport: NeverReturningTransport(started: log), configuration: configuration)
        let start = ContinuousClock.now
        let error = await #expect(throws: StrataError.self) { try await networker.send(Endpoint<Void>(Self.auth)) }
        let elapsed = ContinuousClock.now - start
        #expect(log.all == ["sent"])
        #expect(error?.kind == .transport)
        #expect(error?.isTimeout == true)
        #expect(error?.phase == .awaitingHead)
        #expect(elapsed >= .seconds(1) && elapsed < .seconds(30))  // the transport alone would never return
        #expect(
            error?.description
                == "GET http://example.com/user/auth: transport failed while waiting for the response head: timed out")
    }

    /// A body whose second chunk never comes, ignoring cancellation.
    struct StallingChunks: AsyncSequence, Sendable {
        typealias Element = Data
        struct AsyncIterator: AsyncIteratorProtocol {
            var sent = false
            mutating func next() async throws -> Data? {
                if sent { await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in } }
                sent = true
                return Data("first".utf8)
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
    }

    @Test func stalledBodyTimesOutWhileReadingTheBody() async {
        var configuration = Networker.Configuration()
        configuration.timeout = .seconds(2)  // generous: the head must arrive first, even on a loaded machine
        let transport = ClosureTransport { _, _, _ in
            (HTTPResponse(status: .ok), MessageBody(length: nil, streaming: StallingChunks()))
        }
        let error = await #expect(throws: StrataError.self) {
            try await Networker(transport: transport, configuration: configuration).send(Endpoint<Data>(Self.auth))
        }
        #expect(error?.isTimeout == true)
        #expect(error?.phase == .readingBody)
        #expect(error?.status == .ok)
    }

    @Test func streamedBodyReadsStayWithinTheDeadline() async throws {
        var configuration = Networker.Configuration()
        configuration.timeout = .seconds(3)  // generous: the head must arrive first, even on a loaded machine
        let transport = ClosureTransport { _, _, _ in
            (HTTPResponse(status: .ok), MessageBody(length: nil, streaming: StallingChunks()))
        }
        let (head, body) = try await Networker(transport: transport, configuration: configuration).stream(
            Endpoint<Data>(Self.auth))
        #expect(head.status == .ok)
        var iterator = body.makeAsyncIterator()
        #expect(try await iterator.next() == Data("first".utf8))
        // The call's timeout, as a buffered call's: kind, phase, request and response.
        let error = await #expect(throws: StrataError.self) { _ = try await iterator.next() }
        #expect(error?.kind == .transport)
        #expect(error?.transportError?.kind == .timedOut)
        #expect(error?.phase == .readingBody)
        #expect(error?.request?.path == "/user/auth")
        #expect(error?.status == .ok)
    }

    @Test func streamedBodyAlreadyInMemoryIsReturnedAsItIs() async throws {
        let (_, body) = try await Networker(transport: ClosureTransport.json(#"{"a":1}"#)).stream(
            Endpoint<Data>(Self.auth))
        #expect(body.isReplayable)
        #expect(body.bufferedData == Data(#"{"a":1}"#.utf8))
    }

    @Test func attemptTimeoutBoundsEachPassThroughTheTransport() async {
        var configuration = Networker.Configuration()
        configuration.timeout = .seconds(120)
        configuration.attemptTimeout = .milliseconds(100)
        let deadlines = EventLog()
        let transport = ClosureTransport { _, _, deadline in
            let remaining = deadline.map { ContinuousClock.now.duration(to: $0) } ?? .zero
            deadlines.append(remaining <= .milliseconds(100) ? "attempt" : "total")
            try await Task.sleep(for: .seconds(60))
            return (HTTPResponse(status: .ok), nil)
        }
        let start = ContinuousClock.now
        let error = await #expect(throws: StrataError.self) {
            try await Networker(transport: transport, configuration: configuration).send(Endpoint<Void>(Self.auth))
        }
        #expect(ContinuousClock.now - start < .seconds(30))  // far below the 60 s sleep and the 120 s call timeout
        #expect(deadlines.all == ["attempt"])
        #expect(error?.isTimeout == true)
    }

    @Test func cancellingTheCallerStopsAtOnceEvenIfTheTransportIgnoresIt() async {
        let log = EventLog()
        let networker = Networker(transport: NeverReturningTransport(started: log))
        let task = Task { try await networker.send(Endpoint<Void>(Self.auth)) }
        while log.all.isEmpty { await Task.yield() }
        task.cancel()
        let result = await task.result
        #expect((try? result.get()) == nil)
        #expect((result.error as? StrataError)?.kind == .cancelled)
    }

    @Test func timersAreReleasedWhenTheExchangeEnds() async throws {
        // Many exchanges with a long deadline: each timer leaves the scheduler when its
        // exchange ends, and nothing keeps it alive afterwards.
        weak var lastTimer: DeadlineTimer?
        for _ in 0..<100 {
            let timer = DeadlineTimer(deadline: .now + .seconds(3600))
            lastTimer = timer
            #expect(timer.isPending)
            let outcome = await timer.run { 42 }
            timer.cancel()
            #expect(!timer.isPending)
            #expect(try outcome.result.get() == 42)
            #expect(outcome.timedOut == false)
        }
        #expect(lastTimer == nil)
    }

    @Test func schedulerFiresEachTimerAtItsDeadlineInAnyOrderOfArrival() async throws {
        // A late deadline first, then earlier ones: the system timer is re-armed for the
        // earliest; a cancelled timer never fires.
        let late = DeadlineTimer(deadline: .now + .seconds(30))
        let cancelled = DeadlineTimer(deadline: .now + .milliseconds(100))
        let early = DeadlineTimer(deadline: .now + .milliseconds(150))
        let middle = DeadlineTimer(deadline: .now + .milliseconds(300))
        cancelled.cancel()
        let start = ContinuousClock.now
        async let earlyRun = early.run { try await Task.sleep(for: .seconds(20)) }
        async let middleRun = middle.run { try await Task.sleep(for: .seconds(20)) }
        let (earlyOutcome, middleOutcome) = await (earlyRun, middleRun)
        #expect(earlyOutcome.timedOut && middleOutcome.timedOut)
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(early.hasFired && middle.hasFired)
        #expect(!cancelled.hasFired && !late.hasFired)
        #expect(!early.isPending && !middle.isPending && !cancelled.isPending)
        #expect(late.isPending)
        late.cancel()
        #expect(!late.isPending)
    }

    // MARK: Every stage says what failed

    struct TokenMiddleware: Middleware {
        struct Expired: Error, Equatable { let user: String }
        func intercept(
            _ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext,
            next: MiddlewareNext
        ) async throws -> (HTTPResponse, MessageBody?) {
            throw Expired(user: "ann")
        }
    }

    /// Rethrows whatever comes from below, as a retry or logging step would.
    struct PassingMiddleware: Middleware {
        func intercept(
            _ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext,
            next: MiddlewareNext
        ) async throws -> (HTTPResponse, MessageBody?) {
            try await next(request, body, context)
        }
    }

    /// A step waiting under the call's deadline (a credential refresh) can give up a moment
    /// before the call's own timer fires: its cancellation is still the call's timeout. Once
    /// the timer fired, the call's state holds the timeout, and any later failure gets it.
    @Test func aFailureOnceTheDeadlineHasPassedIsATimeoutWhicheverTimerFiredFirst() async {
        let request = HTTPRequest(method: .get, scheme: "http", authority: "example.com", path: "/user")
        func sent() -> Call {
            let call = Call()
            call.update { $0.requestSent(request) }
            return call
        }
        let passed = sent().failed(CancellationError(), deadline: .now - .milliseconds(1))
        #expect(passed.kind == .transport)
        #expect(passed.transportError?.kind == .timedOut)
        #expect(passed.phase == .awaitingHead)
        #expect(passed.request?.path == "/user")
        let pending = sent().failed(CancellationError(), deadline: .now + .seconds(60))
        #expect(pending.kind == .cancelled)

        let fired = sent()
        let timer = fired.deadlineTimer(.now + .milliseconds(20))
        let outcome = await Deadline.run(under: timer) { try await Task.sleep(for: .seconds(30)) }
        #expect(outcome.timedOut)
        let error = fired.failed(TransportError(.connectionLost), deadline: nil)
        #expect(error.transportError?.kind == .timedOut)
        #expect(error.request?.path == "/user")
    }

    @Test func middlewareErrorIsTheMiddlewareStageWithItsTypeName() async {
        let networker = Networker(
            transport: ClosureTransport.json("{}"), middleware: [PassingMiddleware(), TokenMiddleware()])
        let error = await #expect(throws: StrataError.self) { try await networker.send(Endpoint<Void>(Self.auth)) }
        #expect(error?.kind == .middleware)
        #expect(error?.middleware == "TokenMiddleware")
        #expect(error?.underlying as? TokenMiddleware.Expired == TokenMiddleware.Expired(user: "ann"))
        #expect(
            error?.description
                == #"GET http://example.com/user/auth: middleware TokenMiddleware failed: Expired(user: "ann")"#)
    }

    @Test func errorsFromBelowPassThroughMiddlewareUntouched() async {
        struct Unknown: Error {}
        let refused = Networker(
            transport: ClosureTransport { _, _, _ in throw TransportError(.connectionRefused) },
            middleware: [PassingMiddleware(), PassingMiddleware()])
        let error = await #expect(throws: StrataError.self) { try await refused.send(Endpoint<Void>(Self.auth)) }
        #expect(error?.kind == .transport)
        #expect(error?.transportError?.kind == .connectionRefused)

        // An unknown transport error becomes a transport failure, not a middleware one.
        let unknown = Networker(
            transport: ClosureTransport { _, _, _ in throw Unknown() }, middleware: [PassingMiddleware()])
        let other = await #expect(throws: StrataError.self) { try await unknown.send(Endpoint<Void>(Self.auth)) }
        #expect(other?.kind == .transport)
        #expect(other?.transportError?.kind == .other)
        #expect(other?.transportError?.underlying is Unknown)
    }

    @Test func stagesCompareAndMatchLikeEnumCases() {
        let error = StrataError(.unacceptableStatus, response: HTTPResponse(status: .notFound))
        var matched = ""
        switch error.kind {
        case .transport: matched = "transport"
        case .unacceptableStatus: matched = "status \(error.status?.code ?? 0)"
        default: matched = "other"
        }
        #expect(matched == "status 404")
        #expect(error.kind != .decoding)
        #expect(TransportError(.timedOut).kind == .timedOut)
        #expect(StrataError.Kind.middleware.description == "middleware")
    }

    @Test func invalidURLOnlyForURLProblems() async {
        struct Unencodable: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "no"))
            }
        }
        let request = RequestDescription(route: RegistrationRoute.auth, method: .post, parameters: Unencodable())
        let error = await #expect(throws: StrataError.self) {
            try await Networker(transport: ClosureTransport.json("{}")).send(Endpoint<Void>(request))
        }
        #expect(error?.kind == .encoding)
    }

    // MARK: A failed response keeps its body; a parse error stays the app's value

    struct Problem: Codable, Equatable {
        let code: String
        let detail: String
        let fields: [String]
    }

    static let problem = Problem(
        code: "invalid", detail: String(repeating: "d", count: 1_800),
        fields: (1...20).map { "field\($0)" })

    @Test func errorBodyOf2KBDecodesIntoTheAppsErrorType() async throws {
        let json = try JSONEncoder().encode(Self.problem)
        #expect(json.count > 2_000)
        let transport = ClosureTransport { _, _, _ in
            (
                HTTPResponse(status: .unprocessableContent, headerFields: [.contentType: "application/json"]),
                MessageBody(json)
            )
        }
        let error = await #expect(throws: StrataError.self) {
            try await Networker(transport: transport).send(Endpoint<JSON>(Self.auth))
        }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.body == json)
        #expect(error?.isBodyTruncated == false)
        #expect(try error?.decodeBody(as: Problem.self) == Self.problem)
        #expect(error?.bodySnippet?.utf8.count == StrataError.snippetLimit)
    }

    @Test func errorBodyIsBoundedByTheConfiguredLimit() async throws {
        var configuration = Networker.Configuration()
        configuration.errorBodyLimit = 100
        let json = try JSONEncoder().encode(Self.problem)
        let transport = ClosureTransport { _, _, _ in (HTTPResponse(status: .unprocessableContent), MessageBody(json)) }
        let error = try #require(
            await #expect(throws: StrataError.self) {
                try await Networker(transport: transport, configuration: configuration).send(Endpoint<JSON>(Self.auth))
            })
        #expect(error.body == json.prefix(100))
        #expect(error.isBodyTruncated)
        #expect(throws: MappingError.self) { try error.decodeBody(as: Problem.self) }
    }

    @Test func validationMiddlewareKeepsTheWholeErrorBodyToo() async throws {
        let json = try JSONEncoder().encode(Self.problem)
        let transport = ClosureTransport { _, _, _ in
            (
                HTTPResponse(status: .unprocessableContent),
                MessageBody(
                    length: nil,
                    streaming: AsyncStream { continuation in
                        continuation.yield(json.prefix(1000))
                        continuation.yield(json.dropFirst(1000))
                        continuation.finish()
                    })
            )
        }
        let error = await #expect(throws: StrataError.self) {
            try await Networker(transport: transport, middleware: [ValidationMiddleware()]).send(
                Endpoint<JSON>(Self.auth))
        }
        #expect(try error?.decodeBody(as: Problem.self) == Self.problem)
    }

    @Test func parseFunctionErrorComesBackAsTheSameValue() async {
        struct NotAUser: Error, Equatable { let reason: String }
        let endpoint = Endpoint<String>(Self.auth) { _, _ in throw NotAUser(reason: "guest") }
        let error = await #expect(throws: StrataError.self) {
            try await Networker(transport: ClosureTransport.json("{}")).send(endpoint)
        }
        #expect(error?.kind == .decoding)
        #expect(error?.underlying as? NotAUser == NotAUser(reason: "guest"))

        let mapped = Endpoint<JSON>(Self.auth).map { _ -> Int in throw NotAUser(reason: "mapped") }
        let mapError = await #expect(throws: StrataError.self) {
            try await Networker(transport: ClosureTransport.json("{}")).send(mapped)
        }
        #expect(mapError?.kind == .mapping)
        #expect(mapError?.underlying as? NotAUser == NotAUser(reason: "mapped"))
    }

    // MARK: Logging metadata

    @Test func everyCallGetsItsOwnRequestID() async throws {
        let log = EventLog()
        var configuration = Networker.Configuration()
        configuration.logger = Logger(label: "test") { _ in CapturingLogHandler(log: log) }
        let networker = Networker(
            transport: ClosureTransport.json("{}"), middleware: [LoggingMiddleware(level: .info, logsHeaders: false)],
            configuration: configuration)
        try await networker.send(Endpoint<Void>(Self.auth))
        try await networker.send(Endpoint<Void>(Self.auth))
        let ids = log.all.map { line in
            line.split(separator: " ").first { $0.hasPrefix("strata.request=") }.map(String.init) ?? "none"
        }
        #expect(ids.count == 6)  // →, ← and ✓ per call
        #expect(Set(ids[0..<3]).count == 1 && Set(ids[3..<6]).count == 1 && ids[0] != ids[3])
        #expect(!ids.contains("none"))
    }
}
