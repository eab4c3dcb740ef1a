import HTTPTypes
import Logging

/// The life of one call as a plain value: where the call is, what it has gathered, and
/// what each event means for it. No I/O happens here: the code that runs the call (the
/// chain, the body reads, the timers) reports each event and does what the answer says.
///
/// Shaped as AsyncHTTPClient's `Transaction.StateMachine`: every rule about how a call
/// ends — a timeout, a cancellation, a failure, a late head or chunk after the end — is
/// decided here once, and the first ending wins: a deadline that passes before the head
/// makes the call a timeout even if the head arrives a moment later; a cancellation after
/// the body ended changes nothing.
///
/// ```
/// created ─▶ encoding ─▶ waitingForHead ─▶ readingBody ─▶ bodyRead ─▶ finished
///    └───────────────────────▲    │               │            │
///      (a request sent as is)     └───────────────┴────────────┴──▶ failed / cancelled
/// ```
struct CallState {
    /// Where a call is.
    enum Stage {
        /// Made, nothing done yet.
        case created
        /// Building the request: the route's URL, the parameters.
        case encoding
        /// The request goes through the steps and the transport; no head yet.
        case waitingForHead
        /// The head arrived; the body is read.
        case readingBody(HTTPResponse)
        /// The whole body arrived; the response is validated and parsed.
        case bodyRead(HTTPResponse)
        /// The call delivered its value (or, for a streamed call, its body ended).
        case finished(HTTPResponse)
        /// The call ended with `error`: a failure or a timeout.
        case failed(StrataError)
        /// The call's task, or the reader of its body, gave up.
        case cancelled(StrataError)
    }

    /// What the code running the call does after an event.
    enum Action {
        /// Go on.
        case proceed
        /// The call has already ended (a timeout, a cancellation, a failure) with this
        /// error: stop the work still running for it, drop what arrived late, and report
        /// the error.
        case fail(StrataError)

        /// The error the call already ended with, or `nil` to go on.
        var error: StrataError? {
            if case .fail(let error) = self { error } else { nil }
        }

        /// Goes on, or throws the error the call already ended with.
        func throwIfEnded() throws(StrataError) {
            if case .fail(let error) = self { throw error }
        }
    }

    private(set) var stage = Stage.created
    /// The request as the client sent it to the first step, once it did.
    private(set) var request: HTTPRequest?
    /// The call's deadline timer, from the request until the call's work no longer runs
    /// under the deadline: its body read to the end, its ending (a failure, a timeout, a
    /// cancellation, a dropped body), or the deadline lifted at the head of a stream read
    /// under an idle timeout. (A streamed call hands over at its head, and its body's reads
    /// still run under the timer.) The state releases it on those events,
    /// so no code running the call can keep it past them. Releasing it takes the
    /// scheduler's lock under the call's, which is safe: the scheduler fires timers (and
    /// so takes a call's lock) without holding its own.
    private(set) var timer: DeadlineTimer?
    /// Whether the call ended and handed over what it gathered (``handOver()``).
    private var handedOver = false
    /// The bytes of the response body read so far.
    private(set) var bodyBytes = 0
    /// What the call's steps reported (``MiddlewareContext/record(_:for:)``).
    var records = CallValues()
    /// What the client running the call keeps on it for itself (the work the steps left
    /// for after the call), under its own keys.
    var clientValues = CallValues()
    /// The client's logger, before the call's metadata is added.
    let baseLogger: Logger?
    let requestID: UInt64
    /// The endpoint's attributes, which the call's logger carries as metadata.
    let attributes: [String: String]
    /// The call's logger, made the first time a step asks for it.
    private var logger: Logger?

    init(baseLogger: Logger?, requestID: UInt64, attributes: [String: String] = [:]) {
        self.baseLogger = baseLogger
        self.requestID = requestID
        self.attributes = attributes
    }

    /// The response head, once it arrived.
    var response: HTTPResponse? {
        switch stage {
        case .readingBody(let head), .bodyRead(let head), .finished(let head): head
        case .failed(let error), .cancelled(let error): error.response
        case .created, .encoding, .waitingForHead: nil
        }
    }

    /// The error the call ended with, if it failed or was cancelled.
    var error: StrataError? {
        switch stage {
        case .failed(let error), .cancelled(let error): error
        default: nil
        }
    }

    /// Whether the call has ended, one way or another.
    var hasEnded: Bool {
        switch stage {
        case .finished, .failed, .cancelled: true
        default: false
        }
    }

    // MARK: Events

    /// The request is being built.
    mutating func encodingStarted() {
        if case .created = stage { stage = .encoding }
    }

    /// `request` goes to the first step (built by the client, or given as is): once a call.
    /// `timer` makes the call's deadline timer, if the call runs under one, which the call
    /// holds from now on (``timer``); made under the call's lock, it cannot fire before the
    /// call knows its request.
    mutating func requestSent(_ request: HTTPRequest, timer: @autoclosure () -> DeadlineTimer? = nil) {
        switch stage {
        case .created, .encoding:
            self.request = request
            stage = .waitingForHead
            self.timer = timer()
        case .waitingForHead, .readingBody, .bodyRead, .finished, .failed, .cancelled:
            preconditionFailure("CallState: the request sent again, in \(stage)")
        }
    }

    /// The response head arrived. A call that ended before (its deadline passed, it was
    /// cancelled) stays ended: the late head is dropped.
    mutating func headArrived(_ head: HTTPResponse) -> Action {
        switch stage {
        case .created, .encoding, .waitingForHead:
            stage = .readingBody(head)
            return .proceed
        case .failed(let error), .cancelled(let error):
            return .fail(error)
        case .readingBody, .bodyRead, .finished:
            preconditionFailure("CallState: a second response head, in \(stage)")
        }
    }

    /// `count` bytes of the body arrived. A chunk after the call ended is dropped.
    mutating func chunkArrived(_ count: Int) -> Action {
        switch stage {
        case .readingBody:
            bodyBytes += count
            return .proceed
        case .failed(let error), .cancelled(let error):
            return .fail(error)
        case .created, .encoding, .waitingForHead, .bodyRead, .finished:
            preconditionFailure("CallState: a body chunk outside the body's read, in \(stage)")
        }
    }

    /// The body ended after `count` more bytes. `finishes` says nothing follows (a
    /// streamed call, whose body is the caller's); otherwise validation and the parse do,
    /// and ``finished()`` ends the call. A body read again after its end ends again: that
    /// changes nothing.
    mutating func bodyEnded(adding count: Int = 0, finishes: Bool) -> Action {
        switch stage {
        case .readingBody(let head):
            bodyBytes += count
            stage = finishes ? .finished(head) : .bodyRead(head)
            releaseTimer()
            return .proceed
        case .failed(let error), .cancelled(let error):
            return .fail(error)
        case .bodyRead, .finished:
            return .proceed
        case .created, .encoding, .waitingForHead:
            preconditionFailure("CallState: the body ended before the head, in \(stage)")
        }
    }

    /// The call delivered its value. A streamed call's body is still the caller's to read:
    /// it finishes when the body ends (``bodyEnded(adding:finishes:)``).
    mutating func finished() -> Action {
        switch stage {
        case .bodyRead(let head):
            stage = .finished(head)
            return .proceed
        case .failed(let error), .cancelled(let error):
            return .fail(error)
        case .readingBody, .finished:
            return .proceed
        case .created, .encoding, .waitingForHead:
            preconditionFailure("CallState: a call finished before its head, in \(stage)")
        }
    }

    /// The call ends with `error` (a validation or parse failure, an error classified
    /// before), unless it already ended: returns the error it ends with.
    mutating func ended(with error: StrataError) -> StrataError {
        if let ended = self.error { return ended }
        end(with: error)
        return error
    }

    /// What the call gathered, handed over once as it ends: the steps' records and the
    /// client's own values (which are emptied).
    mutating func handOver() -> (records: CallValues, clientValues: CallValues) {
        precondition(!handedOver, "CallState: a call ended twice")
        handedOver = true
        defer { clientValues = CallValues() }
        return (records, clientValues)
    }

    /// The call's deadline passed (its timer fired): a timeout of whatever stage the call
    /// is in, unless it already ended. The timer that delivers the event stops the work
    /// running under it, and that work's ending (a `CancellationError`, a late head or
    /// chunk) is then answered with this timeout: nothing else is left to do.
    mutating func deadlineExceeded() {
        guard error == nil else { return }
        if case .finished = stage { return }
        end(with: StrataError.timeout(request: request, response: response))
    }

    /// The call's deadline no longer applies: it covered the head of a stream whose reads
    /// each have an idle timeout of their own. Its timer is released.
    mutating func deadlineLifted() {
        releaseTimer()
    }

    /// An attempt's own deadline (``MiddlewareContext/attemptTimeout``) passed. Until the
    /// call's head arrived, the attempt fails with `TransportError(.timedOut)` (for a retry
    /// step to try again) and the call goes on; once it arrived, the attempt's bound no
    /// longer applies.
    func attemptDeadlinePassed() -> TransportError? {
        switch stage {
        case .readingBody, .bodyRead, .finished: nil
        case .created, .encoding, .waitingForHead, .failed, .cancelled: TransportError(.timedOut)
        }
    }

    /// The reader dropped the body before its end: the call is cancelled, unless it
    /// already ended. Nothing is left to stop or resume (the reader is gone).
    mutating func bodyDropped() {
        if error == nil, case .readingBody = stage {
            end(with: StrataError.cancellation(request: request, response: response))
        }
        releaseTimer()
    }

    /// The work of the call threw `cause`. `deadlinePassed` says the call's deadline
    /// passed while it ran, which makes any failure a timeout; `taskCancelled` says the
    /// calling task was cancelled, which makes a failure with no cause of its own a
    /// cancellation. Returns the error the call ends with: the first ending's, when it
    /// already ended.
    mutating func failed(
        _ cause: any Error,
        deadlinePassed: Bool,
        taskCancelled: @autoclosure () -> Bool
    ) -> StrataError {
        if let error { return error }
        let error = StrataError.ending(
            cause, request: request, response: response, deadlinePassed: deadlinePassed,
            taskCancelled: taskCancelled())
        end(with: error)
        return error
    }

    /// Ends the call with `error`, a cancellation or a failure, and releases its timer.
    private mutating func end(with error: StrataError) {
        stage = error.kind == .cancelled ? .cancelled(error) : .failed(error)
        releaseTimer()
    }

    /// Releases the call's timer, if it still holds one: the call's work no longer runs
    /// under the deadline.
    private mutating func releaseTimer() {
        timer?.cancel()
        timer = nil
    }

    // MARK: Logging

    /// The call's logger: the client's with the call's `strata.request` metadata and the
    /// endpoint's attributes.
    ///
    /// Setting metadata calls the log handler, which may do real work every time
    /// (swift-log's `StreamLogHandler` re-renders all of it); most calls never log, so
    /// a call pays for it only when a step reads ``MiddlewareContext/logger``.
    mutating func callLogger() -> Logger {
        if let logger { return logger }
        var made = baseLogger ?? Logger(label: "strata")
        made[metadataKey: "strata.request"] = "\(requestID)"
        for (key, value) in attributes { made[metadataKey: key] = "\(value)" }
        logger = made
        return made
    }
}
