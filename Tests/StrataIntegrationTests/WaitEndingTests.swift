import Foundation
import HTTPTypes
import Strata
import StrataFaultServer
import StrataTestSupport
import Testing

/// A call that waits inside a step — for a slot of the per-host queue, for a credential
/// refresh, through a retry's backoff — ends as the call does: its deadline passing is the
/// call's timeout, its task's cancellation the call's cancellation, each with the request,
/// the phase it reached and on time; and a server that drops the connection after the wait
/// is the transport failure it is. Both transports, against the fault server on 127.0.0.1.
@Suite("Waits end as the call does", .isTimed)
struct WaitEndingTests {
    /// Where the call waits.
    enum Wait: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// `ConcurrencyLimitMiddleware(perHost: 1)`, while another call holds the slot.
        case perHostQueue
        /// `AuthenticationMiddleware`, after a `401`, while the provider refreshes.
        case credentialRefresh
        /// `RetryMiddleware`, between attempts.
        case retryBackoff

        var testDescription: String { rawValue }
    }

    typealias Ending = CallEndingCause

    /// The call's deadline where it is the subject, and when its task is cancelled: 1 s
    /// wherever the tables run, shorter than the `Retry-After: 1` the retry's backoff must
    /// not wait out (no wait here needs the server first).
    static let deadline = Duration.seconds(1)
    static let cancelAfter = Duration.milliseconds(500)
    /// How long after the deadline or the cancellation the call may end.
    static var margin: Duration { Ending.margin }

    /// What a cell measured: the call's error and how long it took from its start (or from
    /// the cancellation) to end.
    struct Outcome {
        var error: StrataError
        var elapsed: Duration
    }

    @Test(arguments: TransportKind.allCases, Wait.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func theWaitEndsAsTheCall(_ kind: TransportKind, wait: Wait) async throws {
        for ending in Ending.allCases {
            try await FaultServer.with { server in
                try await kind.with { transport in
                    switch wait {
                    case .perHostQueue: try await perHostQueue(ending, server: server, transport: transport)
                    case .credentialRefresh: try await credentialRefresh(ending, server: server, transport: transport)
                    case .retryBackoff: try await retryBackoff(ending, server: server, transport: transport)
                    }
                }
            }
        }
    }

    /// Runs `call` in a task of its own, cancelling the task after ``cancelAfter`` when
    /// `ending` says so, and returns its error.
    static func outcome(
        of ending: Ending, _ call: @escaping @Sendable () async throws -> Void
    ) async throws -> Outcome {
        let outcome = try await ending.outcome(of: call, after: cancelAfter)
        let error = try #require(
            outcome.thrown as? StrataError, "\(ending): not a StrataError: \(String(describing: outcome.thrown))")
        return Outcome(error: error, elapsed: outcome.elapsed)
    }

    /// The expectations every wait shares for a deadline and a cancellation: the call's
    /// timeout or cancellation, waiting for the head, with the request, on time (`deadline`
    /// after the start for a timeout).
    static func expectTheCallsEnding(
        _ outcome: Outcome, _ ending: Ending, path: String, deadline: Duration = deadline
    ) {
        let error = outcome.error
        #expect(error.request?.path == path, "\(ending)")
        #expect(error.phase == .awaitingHead, "\(ending)")
        #expect(error.status == nil, "\(ending)")
        switch ending {
        case .deadlinePasses:
            #expect(error.kind == .transport, "\(error)")
            #expect(error.transportError?.kind == .timedOut, "\(error)")
            #expect(outcome.elapsed >= deadline && outcome.elapsed < deadline + margin, "\(outcome.elapsed)")
        case .taskCancelled:
            #expect(error.kind == .cancelled, "\(error)")
            #expect(outcome.elapsed < margin, "\(outcome.elapsed)")
        case .serverDrops:
            Issue.record("a drop is no wait's own ending")
        }
    }

    /// A call queued behind another that holds the host's one slot (a streamed body of
    /// `/trickle`, left unread): the deadline and the cancellation end it in the queue,
    /// before it reaches the server. For a drop the holder reads a body the server resets,
    /// which frees the slot, and the queued call then meets the same reset.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func perHostQueue(_ ending: Ending, server: FaultServer, transport: any Transport) async throws {
        var configuration = Networker.Configuration()
        configuration.timeout = .seconds(30)
        let networker = Networker(
            transport: transport, middleware: [ConcurrencyLimitMiddleware(perHost: 1)], configuration: configuration)
        let subjectRoute: FaultRoute = ending == .serverDrops ? .resetMidBody : .ok
        let holderRoute: FaultRoute = ending == .serverDrops ? .resetMidBody : .trickle
        let (holderHead, holderBody) = try await networker.stream(
            Endpoint<Data>(RequestDescription(route: server.url(for: holderRoute))))
        #expect(holderHead.status == .ok)
        let subject = Endpoint<Data>(RequestDescription(route: server.url(for: subjectRoute)))
            .timeout(ending == .deadlinePasses ? Self.deadline : .seconds(30))
        // The holder keeps its slot until its body ends: a moment for a drop (it reads the
        // body the server resets), the whole cell otherwise (it leaves the body unread).
        let holder = Task {
            guard ending == .serverDrops else { return }
            try await Task.sleep(for: .milliseconds(300))
            for try await _ in holderBody {}
        }
        let outcome = try await Self.outcome(of: ending) { _ = try await networker.send(subject) }
        withExtendedLifetime(holderBody) {}
        holder.cancel()
        if ending == .serverDrops {
            #expect(outcome.error.kind == .transport, "\(outcome.error)")
            #expect(outcome.error.transportError?.kind == .connectionLost, "\(outcome.error)")
            #expect(outcome.error.phase == .readingBody)
            #expect(outcome.error.status == .ok)
            #expect(server.requests.map(\.path) == ["/reset-mid-body", "/reset-mid-body"])
        } else {
            Self.expectTheCallsEnding(outcome, ending, path: "/ok")
            #expect(server.requests.map(\.path) == ["/trickle"], "the queued call never reached the server")
        }
    }

    /// A call whose credential expired, so that it waits for the provider's refresh: the
    /// refresh takes as long as the cell needs, and for a drop the refresh's own request
    /// meets a reset, which fails the call as the step's failure.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func credentialRefresh(_ ending: Ending, server: FaultServer, transport: any Transport) async throws {
        let tokenService = Networker(transport: transport)
        let tokenEndpoint = Endpoint<Data>(RequestDescription(route: server.url(for: .resetBeforeHead)))
        let provider = ExpiredTokenProvider {
            if ending == .serverDrops { _ = try await tokenService.send(tokenEndpoint) }
            try await Task.sleep(for: .seconds(30))
            return "fresh"
        }
        var configuration = Networker.Configuration()
        configuration.timeout = ending == .deadlinePasses ? Self.deadline : .seconds(30)
        let networker = Networker(
            transport: transport, middleware: [AuthenticationMiddleware(provider)], configuration: configuration)
        let outcome = try await Self.outcome(of: ending) {
            _ = try await networker.send(Endpoint<Data>(RequestDescription(route: server.url(for: .ok))))
        }
        if ending == .serverDrops {
            #expect(outcome.error.kind == .middleware, "\(outcome.error)")
            #expect(outcome.error.middleware == "AuthenticationMiddleware<ExpiredTokenProvider>")
            #expect(outcome.error.request?.path == "/ok")
            let refresh = try #require(outcome.error.underlying as? StrataError)
            #expect(refresh.kind == .transport)
            #expect(refresh.transportError?.kind == .connectionLost)
            #expect(refresh.request?.path == "/reset-before-head")
            #expect(server.requests.map(\.path) == ["/reset-before-head"])
        } else {
            Self.expectTheCallsEnding(outcome, ending, path: "/ok")
            #expect(server.requests.isEmpty, "the call never reached the server")
        }
    }

    /// A call the server answers `503` with `Retry-After: 1`: the retry waits a second,
    /// unless that wait would end past the deadline, in which case it does not wait at all
    /// and the `503` is the call's answer. A drop (a reset before the head) is retried
    /// until the attempts are spent, and the last one's failure ends the call.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func retryBackoff(_ ending: Ending, server: FaultServer, transport: any Transport) async throws {
        var configuration = Networker.Configuration()
        configuration.timeout = ending == .deadlinePasses ? Self.deadline : .seconds(30)
        let policy = RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(50))
        let networker = Networker(
            transport: transport, middleware: [RetryMiddleware(policy: policy, budget: nil)],
            configuration: configuration)
        let route: FaultRoute = ending == .serverDrops ? .resetBeforeHead : .unavailable
        let outcome = try await Self.outcome(of: ending) {
            _ = try await networker.send(Endpoint<Data>(RequestDescription(route: server.url(for: route))))
        }
        let error = outcome.error
        switch ending {
        case .deadlinePasses:
            #expect(error.kind == .unacceptableStatus, "\(error)")
            #expect(error.status == .serviceUnavailable)
            #expect(error.retry?.attempts == 1)
            #expect(error.retry?.stopReason == .deadline)
            #expect(outcome.elapsed < Self.margin, "gives up at once: \(outcome.elapsed)")
            #expect(server.requests.map(\.path) == ["/unavailable"])
        case .taskCancelled:
            Self.expectTheCallsEnding(outcome, ending, path: "/unavailable")
            #expect(server.requests.map(\.path) == ["/unavailable"])
        case .serverDrops:
            #expect(error.kind == .transport, "\(error)")
            #expect(error.transportError?.kind == .connectionLost, "\(error)")
            #expect(error.phase == .awaitingHead)
            #expect(error.request?.path == "/reset-before-head")
            #expect(error.retry?.attempts == 3)
            #expect(server.requests.map(\.path) == Array(repeating: "/reset-before-head", count: 3))
        }
    }
}

/// A bearer-token provider whose current token, `stale`, has expired, and whose refresh
/// is `refreshing`.
struct ExpiredTokenProvider: CredentialProvider {
    let refreshing: @Sendable () async throws -> String

    func currentCredential() async throws -> String { "stale" }
    func isExpired(_ credential: String) -> Bool { credential == "stale" }
    func refresh(_ rejected: String) async throws -> String { try await refreshing() }
}
