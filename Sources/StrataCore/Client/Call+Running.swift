import Foundation
import HTTPTypes

/// Running a call: the I/O around its ``CallState``. Each function reports what happens
/// (the request sent, the head, the body's chunks and end, a failure, the deadline, a
/// cancellation) and does what the state answers; the deadline's timer and the body reads
/// run outside the lock.
extension Call {
    /// Runs `chain` and reads the whole body, within `context`'s deadline.
    ///
    /// `inline` (the client's transport enforces the deadline and every step bounds its
    /// own waits, and the call has no attempt timeout, which only the client enforces):
    /// the chain runs in the caller's task, and only a body still streaming is read under
    /// the deadline's timer. Otherwise the chain and the body run in one task under the
    /// timer, which abandons it at the deadline.
    func buffered(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        chain: @escaping MiddlewareNext,
        limit: Int,
        inline: Bool
    ) async throws(StrataError) -> (HTTPResponse, Data) {
        let result: Result<(HTTPResponse, Data), any Error>
        if inline {
            update { $0.requestSent(request) }
            result = await inlineBuffered(request, body: body, context: context, chain: chain, limit: limit)
        } else {
            let call = self
            // The call holds its timer, and releases it as the body ends or the call fails.
            let timer = requestSent(request, timer: deadlineTimer(context.deadline))
            result = await Deadline.run(under: timer) { () async throws -> (HTTPResponse, Data) in
                let (head, responseBody) = try await chain(request, body, context)
                try call.headArrived(head)
                return (head, try await responseBody?.collect(upTo: limit) ?? Data())
            }.result
        }
        switch result {
        case .success(let (head, data)):
            try update { $0.bodyEnded(adding: data.count, finishes: false) }.throwIfEnded()
            return (head, data)
        case .failure(let error):
            throw failed(error, deadline: context.deadline)
        }
    }

    /// The inline run of ``buffered(_:body:context:chain:limit:inline:)``: only a body
    /// still streaming is read under the call's timer.
    private func inlineBuffered(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        chain: MiddlewareNext,
        limit: Int
    ) async -> Result<(HTTPResponse, Data), any Error> {
        let head: HTTPResponse
        let responseBody: MessageBody?
        do {
            (head, responseBody) = try await chain(request, body, context)
            try headArrived(head)
        } catch {
            return .failure(error)
        }
        guard let responseBody else { return .success((head, Data())) }
        let read = await responseBody.read(under: deadlineTimer(context.deadline), BodyCollector(limit: limit))
        return read.result.map { (head, $0) }
    }

    /// Runs `chain` up to the response head within `context`'s deadline and returns the
    /// body unread, its reads reported to the call (``CallBodyChunks``). Without
    /// `idleTimeout`, one timer covers the head and every read of a body that still
    /// streams, and is released when the body ends, fails or is dropped. With it, the
    /// deadline ends at the head, and each read of the body must deliver within
    /// `idleTimeout`.
    func streamed(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        chain: @escaping MiddlewareNext,
        idleTimeout: Duration? = nil
    ) async throws(StrataError) -> (HTTPResponse, MessageBody) {
        let context = context.streamingResponseBody()
        // The call holds its timer, and releases it as the body ends, the call fails, or
        // the body is dropped.
        let timer = requestSent(request, timer: deadlineTimer(context.deadline))
        let outcome = await Deadline.run(under: timer) { try await chain(request, body, context) }
        let head: HTTPResponse
        let responseBody: MessageBody?
        do {
            (head, responseBody) = try outcome.result.get()
            try headArrived(head)
        } catch {
            throw failed(error, deadline: context.deadline)
        }
        if let responseBody, responseBody.bufferedData == nil {
            let timing: CallBodyChunks.Timing? =
                if let idleTimeout { .idle(idleTimeout) } else { timer.map { .deadline($0) } }
            if case .idle = timing { update { $0.deadlineLifted() } }
            let chunks = CallBodyChunks(responseBody, timing: timing, call: self)
            return (head, MessageBody(length: responseBody.length, source: chunks))
        }
        // No body, or one already in memory (the mock, a borrowed URLSession): nothing left to read or time.
        let whole = responseBody ?? MessageBody(Data())
        try update { $0.bodyEnded(adding: whole.bufferedData?.count ?? 0, finishes: true) }.throwIfEnded()
        return (head, whole)
    }

    /// Reports that `request` goes to the first step, with the call's deadline timer
    /// `timer` makes, which the call holds from then on; returns the timer, to run the
    /// call's work under.
    private func requestSent(_ request: HTTPRequest, timer: @autoclosure () -> DeadlineTimer?) -> DeadlineTimer? {
        update { state in
            state.requestSent(request, timer: timer())
            return state.timer
        }
    }

    /// Reports the head; throws the error the call already ended with, if it did.
    private func headArrived(_ head: HTTPResponse) throws(StrataError) {
        try update { $0.headArrived(head) }.throwIfEnded()
    }

    /// The call's timer for `deadline`, if any: when it fires, the call's state learns of it
    /// first (``CallState/deadlineExceeded()``), then the work running under the timer is
    /// stopped, and whatever that work ends with is answered with the call's timeout.
    func deadlineTimer(_ deadline: ContinuousClock.Instant?) -> DeadlineTimer? {
        guard let deadline else { return nil }
        return DeadlineTimer(deadline: deadline) { [self] in update { $0.deadlineExceeded() } }
    }

    /// Reports that the call's work threw `cause`, and returns the error the call ends
    /// with: its first ending when it already ended (the deadline's timer fired), a
    /// timeout when `deadline` has passed (a step's own wait under the same deadline, or a
    /// transport's, can end the call before the timer fires), else how `cause` classifies.
    func failed(_ cause: any Error, deadline: ContinuousClock.Instant?) -> StrataError {
        let deadlinePassed = Deadline.hasPassed(deadline)
        return update { $0.failed(cause, deadlinePassed: deadlinePassed, taskCancelled: Task.isCancelled) }
    }
}

/// The chunks of a streamed response body, each reported to its call (``CallState``),
/// and each read run under a timer: the call's ``DeadlineTimer`` (which the call releases
/// when the body ends, fails or is dropped), or a timer of the read's own for an idle
/// timeout. Dropping the body before its end cancels the call.
final class CallBodyChunks: ChunkSource {
    /// Which timer a read runs under.
    enum Timing {
        /// The call's deadline.
        case deadline(DeadlineTimer)
        /// The longest wait for each chunk.
        case idle(Duration)
    }

    private let upstream: any ChunkSource
    private let timing: Timing?
    private let call: Call

    init(_ body: MessageBody, timing: Timing?, call: Call) {
        self.upstream = IteratorChunkSource(body.makeAsyncIterator())
        self.timing = timing
        self.call = call
    }

    deinit {
        call.update { $0.bodyDropped() }
    }

    /// The next chunk, or `nil` at the end. A chunk is handed over only while the call
    /// reads its body: one that arrives after the call ended is dropped, and the read
    /// throws how the call ended.
    /// - Throws: the ``StrataError`` the call ends with (``Call/failed(_:deadline:)``
    ///   decides it): a timeout (the deadline, or the idle timeout, with phase "reading
    ///   the body"), a cancellation of the reading task, a transport failure, a body past
    ///   its limit — each with the request and the response head.
    func next() async throws(StrataError) -> Data? {
        let chunk: Data?
        do {
            chunk = try await read().get()
        } catch {
            throw call.failed(error, deadline: deadline)
        }
        guard let chunk else {
            try call.update { $0.bodyEnded(finishes: true) }.throwIfEnded()
            return nil
        }
        try call.update { $0.chunkArrived(chunk.count) }.throwIfEnded()
        return chunk
    }

    /// The call's deadline, when the reads run under it: a read that starts once it passed
    /// ends before the timer fires.
    private var deadline: ContinuousClock.Instant? {
        if case .deadline(let timer) = timing { timer.deadline } else { nil }
    }

    /// The next chunk, read under the timer if there is one. The call's timer tells the
    /// call itself when it fires; an idle timeout is reported as the transport's timeout.
    private func read() async -> Result<Data?, any Error> {
        let upstream = self.upstream
        let timer: DeadlineTimer
        switch timing {
        case nil:
            do {
                return .success(try await upstream.next())
            } catch {
                return .failure(error)
            }
        case .deadline(let callTimer): timer = callTimer
        case .idle(let duration): timer = DeadlineTimer(deadline: .now + duration)
        }
        let outcome = await timer.run { try await upstream.next() }
        guard case .idle = timing else { return outcome.result }
        timer.cancel()
        return outcome.timedOut ? .failure(TransportError(.timedOut)) : outcome.result
    }
}
