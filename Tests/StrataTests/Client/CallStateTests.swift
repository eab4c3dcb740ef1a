import Foundation
import HTTPTypes
import Logging
import Testing

@testable import Strata
@testable import StrataCore

/// The call's state machine driven with events alone, no I/O: every transition, and the
/// races where two endings meet (the first wins).
@Suite struct CallStateTests {
    static let request = HTTPRequest(method: .get, scheme: "http", authority: "example.com", path: "/user")
    static let head = HTTPResponse(status: .ok)

    /// A state at `stage`, reached through the events that lead there.
    static func state(at stage: String) -> CallState {
        var state = CallState(baseLogger: nil, requestID: 1)
        if stage == "created" { return state }
        state.encodingStarted()
        if stage == "encoding" { return state }
        state.requestSent(Self.request)
        if stage == "waitingForHead" { return state }
        _ = state.headArrived(head)
        if stage == "readingBody" { return state }
        _ = state.bodyEnded(adding: 3, finishes: false)
        if stage == "bodyRead" { return state }
        _ = state.finished()
        return state
    }

    static func name(_ stage: CallState.Stage) -> String {
        switch stage {
        case .created: "created"
        case .encoding: "encoding"
        case .waitingForHead: "waitingForHead"
        case .readingBody: "readingBody"
        case .bodyRead: "bodyRead"
        case .finished: "finished"
        case .failed(let error): "failed(\(error.kind), \(error.transportError.map { Self.kindName($0.kind) } ?? "-"))"
        case .cancelled(let error): "cancelled(\(error.kind))"
        }
    }

    static func kindName(_ kind: TransportError.Kind) -> String {
        switch kind {
        case .timedOut: "timedOut"
        case .connectionRefused: "connectionRefused"
        case .other: "other"
        default: kind.description
        }
    }

    static func name(_ action: CallState.Action) -> String {
        switch action {
        case .proceed: "proceed"
        case .fail(let error): "fail(\(error.kind))"
        }
    }

    @Test func aBufferedCallGoesFromCreatedToFinished() {
        var state = CallState(baseLogger: nil, requestID: 1)
        #expect(Self.name(state.stage) == "created")
        state.encodingStarted()
        #expect(Self.name(state.stage) == "encoding")
        state.requestSent(Self.request)
        #expect(Self.name(state.stage) == "waitingForHead")
        #expect(state.response == nil)
        #expect(Self.name(state.headArrived(Self.head)) == "proceed")
        #expect(Self.name(state.stage) == "readingBody")
        #expect(state.response?.status == .ok)
        #expect(Self.name(state.chunkArrived(5)) == "proceed")
        #expect(Self.name(state.bodyEnded(adding: 7, finishes: false)) == "proceed")
        #expect(Self.name(state.stage) == "bodyRead")
        #expect(state.bodyBytes == 12)
        #expect(Self.name(state.finished()) == "proceed")
        #expect(Self.name(state.stage) == "finished")
        #expect(state.hasEnded)
        #expect(state.error == nil)
    }

    @Test func aRequestSentAsItIsSkipsEncodingAndAStreamedBodyFinishesTheCall() {
        var state = CallState(baseLogger: nil, requestID: 1)
        state.requestSent(Self.request)
        #expect(Self.name(state.stage) == "waitingForHead")
        _ = state.headArrived(Self.head)
        // The client hands the body to the caller: ending the call there leaves it reading.
        #expect(Self.name(state.finished()) == "proceed")
        #expect(Self.name(state.stage) == "readingBody")
        #expect(Self.name(state.bodyEnded(finishes: true)) == "proceed")
        #expect(Self.name(state.stage) == "finished")
    }

    /// The deadline in each stage: a timeout whose phase is where the call was; a call that
    /// finished stays finished.
    @Test(arguments: [
        ("created", "failed(transport, timedOut)", "awaitingHead"),
        ("encoding", "failed(transport, timedOut)", "awaitingHead"),
        ("waitingForHead", "failed(transport, timedOut)", "awaitingHead"),
        ("readingBody", "failed(transport, timedOut)", "readingBody"),
        ("bodyRead", "failed(transport, timedOut)", "readingBody"),
        ("finished", "finished", "-"),
    ])
    func theDeadlineInEachStage(stage: String, after: String, phase: String) {
        var state = Self.state(at: stage)
        state.deadlineExceeded()
        #expect(Self.name(state.stage) == after)
        #expect((state.error?.phase).map { "\($0 == .awaitingHead ? "awaitingHead" : "readingBody")" } ?? "-" == phase)
    }

    /// A cancelled task's stop while the call waits or reads: a cancellation carrying the
    /// request, the head when it came, and the phase the call was in.
    @Test(arguments: ["waitingForHead", "readingBody"])
    func aCancellationInEachStage(stage: String) {
        var state = Self.state(at: stage)
        let error = Self.cancel(&state)
        #expect(error.kind == .cancelled)
        #expect(Self.name(state.stage) == "cancelled(cancelled)")
        #expect(state.error?.request?.path == "/user")
        #expect(state.error?.response?.status == (stage == "readingBody" ? .ok : nil))
        #expect(state.error?.phase == (stage == "readingBody" ? .readingBody : .awaitingHead))
    }

    /// A body dropped before its end cancels the call; one dropped after it changes nothing.
    @Test func aBodyDroppedBeforeItsEndCancelsTheCall() {
        var reading = Self.state(at: "readingBody")
        reading.bodyDropped()
        #expect(Self.name(reading.stage) == "cancelled(cancelled)")
        #expect(reading.error?.phase == .readingBody)

        var ended = Self.state(at: "readingBody")
        _ = ended.bodyEnded(finishes: true)
        ended.bodyDropped()
        #expect(Self.name(ended.stage) == "finished")
    }

    /// The calling task's cancellation as the client reports it: a `CancellationError` from
    /// the stopped work, the task cancelled.
    static func cancel(_ state: inout CallState) -> StrataError {
        state.failed(CancellationError(), deadlinePassed: false, taskCancelled: true)
    }

    /// The race of the deadline and the head: the deadline first makes the call a timeout,
    /// and the late head is refused with that timeout; the head first, then the deadline,
    /// is a timeout while reading the body.
    @Test func theDeadlineAndTheHeadRace() {
        var late = Self.state(at: "waitingForHead")
        late.deadlineExceeded()
        #expect(Self.name(late.headArrived(Self.head)) == "fail(transport)")
        #expect(Self.name(late.stage) == "failed(transport, timedOut)")
        #expect(late.error?.phase == .awaitingHead)
        #expect(late.response == nil)

        var early = Self.state(at: "waitingForHead")
        _ = early.headArrived(Self.head)
        early.deadlineExceeded()
        #expect(early.error?.phase == .readingBody)
        #expect(early.error?.response?.status == .ok)
    }

    /// The race of a cancellation and the end of the body: whichever comes first decides.
    @Test func aCancellationAndTheBodyEndRace() {
        var endedFirst = Self.state(at: "readingBody")
        _ = endedFirst.bodyEnded(adding: 1, finishes: true)
        endedFirst.bodyDropped()
        #expect(Self.name(endedFirst.stage) == "finished")

        var cancelledFirst = Self.state(at: "readingBody")
        _ = Self.cancel(&cancelledFirst)
        #expect(Self.name(cancelledFirst.bodyEnded(adding: 1, finishes: true)) == "fail(cancelled)")
        #expect(Self.name(cancelledFirst.chunkArrived(4)) == "fail(cancelled)")
        #expect(Self.name(cancelledFirst.stage) == "cancelled(cancelled)")
        #expect(cancelledFirst.bodyBytes == 0)
    }

    /// The race of the deadline and a cancellation: the first ending stays.
    @Test func theDeadlineAndACancellationRace() {
        var deadlineFirst = Self.state(at: "waitingForHead")
        deadlineFirst.deadlineExceeded()
        #expect(Self.cancel(&deadlineFirst).transportError?.kind == .timedOut)
        #expect(Self.name(deadlineFirst.stage) == "failed(transport, timedOut)")

        var cancelFirst = Self.state(at: "waitingForHead")
        _ = Self.cancel(&cancelFirst)
        cancelFirst.deadlineExceeded()
        #expect(Self.name(cancelFirst.stage) == "cancelled(cancelled)")
    }

    /// A failure is classified once: the deadline makes any failure a timeout; a
    /// cancellation error is a cancellation; a body too large is `bodyTooLarge`; an unknown
    /// error is a transport failure, or a cancellation when the calling task was cancelled;
    /// a later failure gets the first one's error.
    @Test func failuresAreClassifiedOnceAndTheFirstWins() {
        struct Odd: Error {}
        func classify(_ cause: any Error, deadline: Bool = false, taskCancelled: Bool = false) -> String {
            var state = Self.state(at: "waitingForHead")
            let error = state.failed(cause, deadlinePassed: deadline, taskCancelled: taskCancelled)
            #expect(state.error?.kind == error.kind)
            return "\(error.kind) \(error.transportError.map { Self.kindName($0.kind) } ?? "-")"
        }
        #expect(classify(CancellationError()) == "cancelled -")
        #expect(classify(CancellationError(), deadline: true) == "transport timedOut")
        #expect(classify(MessageBodyError.tooLarge(limit: 8)) == "bodyTooLarge -")
        #expect(classify(TransportError(.connectionRefused)) == "transport connectionRefused")
        #expect(classify(TransportError(.connectionRefused), taskCancelled: true) == "cancelled -")
        #expect(classify(TransportError(.timedOut), taskCancelled: true) == "transport timedOut")
        #expect(classify(Odd()) == "transport other")
        #expect(classify(Odd(), taskCancelled: true) == "cancelled -")
        #expect(classify(StrataError(.encoding)) == "encoding -")

        var state = Self.state(at: "readingBody")
        let first = state.failed(Odd(), deadlinePassed: false, taskCancelled: false)
        let second = state.failed(CancellationError(), deadlinePassed: true, taskCancelled: true)
        #expect(first.phase == .readingBody)
        #expect(second.kind == .transport)
        #expect(second.transportError?.kind == .other)
        #expect(Self.name(state.finished()) == "fail(transport)")
        #expect(state.ended(with: StrataError(.mapping)).kind == .transport)
    }

    /// A validation or parse failure after the body ends the call with that error.
    @Test func aFailureAfterTheBodyEndsTheCallWithIt() {
        var state = Self.state(at: "bodyRead")
        #expect(state.ended(with: StrataError(.unacceptableStatus)).kind == .unacceptableStatus)
        #expect(Self.name(state.stage) == "failed(unacceptableStatus, -)")
        #expect(Self.name(state.finished()) == "fail(unacceptableStatus)")
    }

    /// An attempt's deadline fails the attempt, not the call, until the head arrived.
    @Test(arguments: [
        ("created", true), ("encoding", true), ("waitingForHead", true), ("readingBody", false),
        ("bodyRead", false), ("finished", false),
    ])
    func theAttemptDeadline(stage: String, failsTheAttempt: Bool) {
        let state = Self.state(at: stage)
        #expect((state.attemptDeadlinePassed()?.kind == .timedOut) == failsTheAttempt)
        #expect(Self.name(state.stage) == Self.name(Self.state(at: stage).stage))
    }

    /// What the call gathered goes out once (a second time is a precondition, below).
    /// The call holds its timer from the request on and releases it (out of the scheduler)
    /// on the events after which nothing runs under the deadline; handing the call over at
    /// a streamed call's head is not one: its body's reads still run under the timer.
    @Test(arguments: [
        ("bodyEnded", false), ("bodyEndedStreamed", false), ("failed", false), ("dropped", false),
        ("deadlineLifted", false), ("deadlineExceeded", false), ("cancelledStep", false),
        ("handedOverAtTheHead", true), ("chunk", true),
    ])
    func theCallReleasesItsTimerWhenNothingRunsUnderIt(_ event: String, stillPending: Bool) {
        var state = CallState(baseLogger: nil, requestID: 1)
        let timer = DeadlineTimer(deadline: .now + .seconds(60))
        defer { timer.cancel() }
        state.requestSent(Self.request, timer: timer)
        #expect(state.timer === timer)
        #expect(Self.name(state.headArrived(Self.head)) == "proceed")
        #expect(timer.isPending)
        switch event {
        case "bodyEnded": _ = state.bodyEnded(adding: 1, finishes: false)
        case "bodyEndedStreamed": _ = state.bodyEnded(finishes: true)
        case "failed": _ = state.failed(TransportError(.connectionLost), deadlinePassed: false, taskCancelled: false)
        case "dropped": state.bodyDropped()
        case "deadlineLifted": state.deadlineLifted()
        case "deadlineExceeded": state.deadlineExceeded()
        case "cancelledStep": _ = state.ended(with: StrataError(.cancelled, request: Self.request))
        case "handedOverAtTheHead":
            _ = state.finished()
            _ = state.handOver()
        default: _ = state.chunkArrived(4)
        }
        #expect(timer.isPending == stillPending, "\(event)")
        #expect((state.timer != nil) == stillPending, "\(event)")
    }

    @Test func theClientsValuesAreHandedOverOnce() {
        enum Note: CallValueKey { typealias Value = Int }
        var state = CallState(baseLogger: nil, requestID: 1)
        state.records[Note.self] = 1
        state.clientValues[Note.self] = 2
        let first = state.handOver()
        #expect(first.records[Note.self] == 1)
        #expect(first.clientValues[Note.self] == 2)
        #expect(state.clientValues[Note.self] == nil)
    }

    /// The call's logger carries its number and the endpoint's attributes.
    @Test func theCallsLoggerCarriesTheEndpointsAttributes() {
        var state = CallState(baseLogger: nil, requestID: 7, attributes: ["priority": "high"])
        let logger = state.callLogger()
        #expect(logger[metadataKey: "strata.request"] == "7")
        #expect(logger[metadataKey: "priority"] == "high")
    }

    /// A step of the client reads them there.
    @Test func aStepSeesTheEndpointsAttributesOnTheCallsLogger() async throws {
        struct Capture: Middleware {
            let seen: Locked<String?>
            func intercept(
                _ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext, next: MiddlewareNext
            ) async throws -> (HTTPResponse, MessageBody?) {
                seen.withLock { $0 = context.logger[metadataKey: "priority"].map { "\($0)" } }
                return try await next(request, body, context)
            }
        }
        let seen = Locked<String?>(nil)
        let networker = Networker(transport: ClosureTransport.json("{}"), middleware: [Capture(seen: seen)])
        try await networker.send(
            Endpoint<Void>(RequestDescription(route: "http://example.com/a")).attribute("priority", "high"))
        #expect(seen.withLock { $0 } == "high")
    }

    /// Events that cannot happen in a call's life stop the process with a message: a
    /// second head, a chunk or a body's end before the head, a request sent twice, a call
    /// that finishes before its head or ends twice. Each runs in a child process.
    @Test func impossibleTransitionsArePreconditions() async {
        await #expect(processExitsWith: .failure) {
            var state = CallStateTests.state(at: "readingBody")
            _ = state.headArrived(CallStateTests.head)
        }
        await #expect(processExitsWith: .failure) {
            var state = CallStateTests.state(at: "waitingForHead")
            _ = state.chunkArrived(1)
        }
        await #expect(processExitsWith: .failure) {
            var state = CallStateTests.state(at: "waitingForHead")
            _ = state.bodyEnded(finishes: true)
        }
        await #expect(processExitsWith: .failure) {
            var state = CallStateTests.state(at: "waitingForHead")
            state.requestSent(CallStateTests.request)
        }
        await #expect(processExitsWith: .failure) {
            var state = CallStateTests.state(at: "waitingForHead")
            _ = state.finished()
        }
        await #expect(processExitsWith: .failure) {
            var state = CallStateTests.state(at: "finished")
            _ = state.handOver()
            _ = state.handOver()
        }
    }
}
