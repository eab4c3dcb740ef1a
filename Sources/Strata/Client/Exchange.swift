import Foundation
import HTTPTypes
import Logging

/// One call of a ``Networker``, from encoding to the end of its response body: how far it
/// got, what its steps recorded, the work it leaves for after it, its logger, and the one
/// classification of what went wrong.
///
/// Shaped as AsyncHTTPClient's `Transaction` is: ``State`` is a plain value whose
/// transitions do no I/O, kept behind one ``Locked``; the I/O (the chain, the body
/// reads, the deadline's timer) runs outside the lock. A struct over that lock, so the
/// copies of a call's context (its attempts, its redirects) share one exchange, and a
/// call allocates it once.
struct Exchange: Sendable {
    /// Where a call is, and what it has gathered.
    struct State {
        /// How far the exchange got.
        enum Phase {
            /// Sending the request and waiting for the response head.
            case awaitingHead
            /// The head arrived; the body is read.
            case readingBody(HTTPResponse)
        }

        private(set) var phase = Phase.awaitingHead
        /// What the call's steps reported (``MiddlewareContext/record(_:for:)``).
        var records = CallValues()
        /// The work the call's steps left for after it (``MiddlewareContext/afterCall(id:_:)``).
        var followUps: [FollowUp] = []
        /// The client's logger, before the call's metadata is added.
        let baseLogger: Logger?
        let requestID: UInt64
        /// The call's logger, made the first time a step asks for it.
        private var logger: Logger?

        init(baseLogger: Logger?, requestID: UInt64) {
            self.baseLogger = baseLogger
            self.requestID = requestID
        }

        mutating func headArrived(_ head: HTTPResponse) {
            phase = .readingBody(head)
        }

        /// The response head, once it arrived.
        var response: HTTPResponse? {
            if case .readingBody(let head) = phase { return head }
            return nil
        }

        /// The call's logger: the client's with the call's `strata.request` metadata.
        ///
        /// Setting metadata calls the log handler, which may do real work every time
        /// (swift-log's `StreamLogHandler` re-renders all of it); most calls never log, so
        /// a call pays for it only when a step reads ``MiddlewareContext/logger``.
        mutating func callLogger() -> Logger {
            if let logger { return logger }
            var made = baseLogger ?? Logger(label: "strata")
            made[metadataKey: "strata.request"] = "\(requestID)"
            logger = made
            return made
        }

        /// The ``StrataError`` for whatever the exchange threw; `timedOut` says the call's
        /// deadline passed while it ran, which makes any failure a timeout.
        func classify(_ cause: any Error, request: HTTPRequest, timedOut: Bool) -> StrataError {
            let response = self.response
            func transport(_ error: TransportError) -> StrataError {
                StrataError(
                    .transport, underlying: error, request: request, response: response,
                    phase: response == nil ? .awaitingHead : .readingBody)
            }
            if timedOut { return transport(TransportError(.timedOut)) }
            switch cause {
            case let error as StrataError:
                return error
            case is CancellationError:
                return StrataError(.cancelled, request: request, response: response)
            case MessageBodyError.tooLarge:
                return StrataError(.bodyTooLarge, underlying: cause, request: request, response: response)
            case let error as TransportError where error.kind == .bodyTooLarge:
                return StrataError(.bodyTooLarge, underlying: cause, request: request, response: response)
            case let error as TransportError where StrataError.isTimeout(error) || !Task.isCancelled:
                return transport(error)
            default:
                if Task.isCancelled { return StrataError(.cancelled, request: request, response: response) }
                return transport(TransportError(.other, underlying: cause))
            }
        }
    }

    /// Work a step left for after its call (see ``MiddlewareContext/afterCall(id:_:)``).
    struct FollowUp: Sendable {
        let id: BackgroundWork.ID
        let work: @Sendable (Networker) async -> Void
    }

    private let state: Locked<State>

    /// A new exchange; `logger` is the client's (`nil` for a context made outside a client).
    init(logger: Logger? = nil, requestID: UInt64 = 0) {
        state = Locked(State(baseLogger: logger, requestID: requestID))
    }

    /// Changes the state under the lock.
    func update<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try state.withLock(body)
    }

    /// What the call's steps recorded so far.
    var records: CallValues { state.withLock { $0.records } }

    /// The call's logger (see ``State/callLogger()``).
    var logger: Logger { state.withLock { $0.callLogger() } }

    /// Ends the call: what its steps recorded, and the work they left for after it, which
    /// is handed over once.
    func end() -> (records: CallValues, followUps: [FollowUp]) {
        state.withLock { state in
            defer { state.followUps = [] }
            return (state.records, state.followUps)
        }
    }

    /// The ``StrataError`` for `cause` at the point the exchange has reached: a timeout
    /// when the deadline's timer fired, or when `deadline` has passed (a step's own wait
    /// under the same deadline, or a transport's, can end the call before the timer
    /// fires).
    func classify(
        _ cause: any Error,
        request: HTTPRequest,
        timerFired: Bool,
        deadline: ContinuousClock.Instant?
    ) -> StrataError {
        let timedOut = timerFired || Deadline.hasPassed(deadline)
        return state.withLock { $0.classify(cause, request: request, timedOut: timedOut) }
    }

    private static let requestCounter = Locked<UInt64>(0)

    /// A number unique within the process, for the `strata.request` logger metadata.
    static func nextRequestID() -> UInt64 {
        requestCounter.withLock { counter in
            counter &+= 1
            return counter
        }
    }
}

// MARK: - Running a call

extension Exchange {
    /// Runs `chain` and reads the whole body, within `context`'s deadline.
    ///
    /// `inline` (the client's transport enforces the deadline and every step bounds its
    /// own waits, and the call has no attempt timeout, which only the `Networker`
    /// enforces): the chain runs in the caller's task, and only a body still streaming is
    /// read under the deadline's timer. Otherwise the chain and the body run in one task
    /// under the timer, which abandons it at the deadline.
    func buffered(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        chain: @escaping MiddlewareNext,
        limit: Int,
        inline: Bool
    ) async throws(StrataError) -> (HTTPResponse, Data) {
        let outcome: (result: Result<(HTTPResponse, Data), any Error>, timedOut: Bool)
        if inline {
            outcome = await inlineBuffered(request, body: body, context: context, chain: chain, limit: limit)
        } else {
            let exchange = self
            outcome = await Deadline.run(until: context.deadline) { () async throws -> (HTTPResponse, Data) in
                let (head, responseBody) = try await chain(request, body, context)
                exchange.update { $0.headArrived(head) }
                return (head, try await responseBody?.collect(upTo: limit) ?? Data())
            }
        }
        switch outcome.result {
        case .success(let exchange): return exchange
        case .failure(let error):
            throw classify(error, request: request, timerFired: outcome.timedOut, deadline: context.deadline)
        }
    }

    /// The inline run of ``buffered(_:body:context:chain:limit:inline:)``; `timedOut` says
    /// whether the timer of a body read under the deadline fired.
    private func inlineBuffered(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        chain: MiddlewareNext,
        limit: Int
    ) async -> (result: Result<(HTTPResponse, Data), any Error>, timedOut: Bool) {
        let head: HTTPResponse
        let responseBody: MessageBody?
        do {
            (head, responseBody) = try await chain(request, body, context)
        } catch {
            return (.failure(error), false)
        }
        update { $0.headArrived(head) }
        guard let responseBody else { return (.success((head, Data())), false) }
        let read = await responseBody.read(until: context.deadline, BodyCollector(limit: limit))
        return (read.result.map { (head, $0) }, read.timedOut)
    }

    /// Runs `chain` up to the response head within `context`'s deadline and returns the
    /// body unread. Without `idleTimeout`, one timer covers the head and every read of a
    /// body that still streams, and is released when the body ends, fails or is dropped.
    /// With it, the deadline ends at the head, and each read of the body must deliver
    /// within `idleTimeout`.
    func streamed(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        chain: @escaping MiddlewareNext,
        idleTimeout: Duration? = nil
    ) async throws(StrataError) -> (HTTPResponse, MessageBody) {
        let timer = context.deadline.map { ExchangeTimer(deadline: $0) }
        let outcome = await Deadline.run(under: timer) { try await chain(request, body, context) }
        switch outcome.result {
        case .success(let (head, responseBody)):
            update { $0.headArrived(head) }
            let timing: TimedChunkSource.Timing? =
                if let idleTimeout { .idle(idleTimeout) } else { timer.map { .deadline($0) } }
            if case .idle = timing { timer?.cancel() }
            if let responseBody, responseBody.bufferedData == nil, let timing {
                return (
                    head,
                    MessageBody(length: responseBody.length, source: TimedChunkSource(responseBody, timing: timing))
                )
            }
            // No body, or one already in memory (the mock, a borrowed URLSession): nothing left to time.
            timer?.cancel()
            return (head, responseBody ?? MessageBody(Data()))
        case .failure(let error):
            timer?.cancel()
            throw classify(error, request: request, timerFired: outcome.timedOut, deadline: context.deadline)
        }
    }
}

/// The chunks of a streamed response body, each read run under a timer: the call's
/// ``ExchangeTimer``, released when the body ends, fails or is dropped, or a timer of
/// the read's own for an idle timeout.
final class TimedChunkSource: ChunkSource {
    /// Which timer a read runs under.
    enum Timing {
        /// The call's deadline.
        case deadline(ExchangeTimer)
        /// The longest wait for each chunk.
        case idle(Duration)
    }

    private let upstream: any ChunkSource
    private let timing: Timing

    init(_ body: MessageBody, timing: Timing) {
        self.upstream = IteratorChunkSource(body.makeAsyncIterator())
        self.timing = timing
    }

    deinit {
        if case .deadline(let timer) = timing { timer.cancel() }
    }

    func next() async throws -> Data? {
        let upstream = self.upstream
        let timer =
            switch timing {
            case .deadline(let timer): timer
            case .idle(let duration): ExchangeTimer(deadline: .now + duration)
            }
        let outcome = await timer.run { try await upstream.next() }
        if case .idle = timing { timer.cancel() }
        if outcome.timedOut {
            timer.cancel()
            throw TransportError(.timedOut)
        }
        switch outcome.result {
        case .success(let chunk):
            if chunk == nil { timer.cancel() }
            return chunk
        case .failure(let error):
            timer.cancel()
            throw error
        }
    }
}
