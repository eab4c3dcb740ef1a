import Foundation
import Strata

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One `URLSession` data or upload task whose events the ``SessionDelegate`` routes
/// here: the response head goes to the caller of ``URLSessionTransport/send(_:body:deadline:)``
/// as soon as it arrives, the body's bytes to whoever reads the ``URLSessionBodyChunks``.
///
/// Bytes that arrive while nobody reads wait in a buffer of at most `bufferLimit` bytes.
/// There is no pausing a data task to rely on (see ``URLSessionTransport``: in
/// `FoundationNetworking`, `resume()` after `suspend()` starts the request over), so a
/// fuller buffer stops the task and the next read throws
/// ``URLSessionTransportError/responseBufferFull(limit:)``.
///
/// When the caller gives up (``stop()``: its task was cancelled, or the body was dropped)
/// the `URLSessionTask` is cancelled, the buffer is released and every later event is
/// ignored. The cancellation is sent from a global dispatch queue: in
/// `FoundationNetworking`, `URLSessionTask.cancel()` waits for the session's work queue,
/// which a peer sending faster than the client reads can keep busy for seconds.
final class SessionTaskRelay: Sendable {
    typealias HeadContinuation = CheckedContinuation<URLResponse, any Error>
    typealias ChunkContinuation = CheckedContinuation<Data?, any Error>

    private struct State {
        var task: URLSessionTask?
        /// `resume()` was called on the task.
        var resumed = false
        /// The delegate reported the task's completion.
        var completed = false
        /// The task was told to cancel (by ``stop()`` or a full buffer).
        var cancelRequested = false
        /// The caller gave up: reads throw `CancellationError`, events are ignored.
        var stopped = false
        /// The caller of `send`, until the head arrives.
        var headWaiter: HeadContinuation?
        /// A read waiting for the next chunk.
        var reader: ChunkContinuation?
        /// Chunks received and not read yet (from `pendingStart` on), and their byte count.
        var pending: [Data] = []
        var pendingStart = 0
        var pendingCount = 0
        /// How the body ended, once it did: no more bytes are accepted after that.
        var end: Result<Void, any Error>?
        /// An authentication challenge was cancelled; its `401`/`407`, when there was one.
        var challengeCancelled = false
        var challengeResponse: HTTPURLResponse?

        /// Whether the caller's wait for the head was answered: it started (``start``
        /// sets the task and the waiter together) and its waiter is gone.
        var headAnswered: Bool { task != nil && headWaiter == nil }
    }

    /// The most bytes that may wait unread.
    let bufferLimit: Int
    private let state = Locked(State())

    /// Told the request body's bytes sent so far.
    let sentBytesHandler: (@Sendable (Int64) -> Void)?

    /// - Parameters:
    ///   - bufferLimit: the most bytes that may wait unread before the task is stopped.
    ///   - sentBytesHandler: told the request body's bytes sent so far.
    init(bufferLimit: Int, sentBytesHandler: (@Sendable (Int64) -> Void)? = nil) {
        self.bufferLimit = bufferLimit
        self.sentBytesHandler = sentBytesHandler
    }

    // MARK: The caller's side

    /// Starts `task` with `continuation` waiting for its head: `register` announces the
    /// task to the session's delegate first, so that no event is missed. When the call
    /// was stopped meanwhile, the continuation throws `CancellationError` and the task is
    /// cancelled (or never resumed).
    func start(
        _ task: URLSessionTask,
        continuation: HeadContinuation,
        register: (SessionTaskRelay, URLSessionTask) -> Void
    ) {
        let proceed = state.withLock { state in
            guard !state.stopped else { return false }
            state.task = task
            state.headWaiter = continuation
            return true
        }
        guard proceed else {
            continuation.resume(throwing: CancellationError())
            Self.cancel(task)
            return
        }
        register(self, task)
        task.resume()
        // A stop() that came before `resumed` was set left the cancellation to this call.
        let cancelNow = state.withLock { state in
            state.resumed = true
            guard state.stopped, !state.completed, !state.cancelRequested else { return false }
            state.cancelRequested = true
            return true
        }
        if cancelNow { Self.cancel(task) }
    }

    /// The next chunk of the body; `nil` at the end.
    /// - Throws: `CancellationError` once the caller gave up (also when the calling task
    ///   is cancelled during the read, which stops the relay), ``TransportError`` for
    ///   a failed transfer or a full buffer.
    func next() async throws -> Data? {
        if let ready = takeReady() { return try ready.get() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: ChunkContinuation) in
                let ready: Result<Data?, any Error>? = state.withLock { state in
                    if let ready = Self.takeReady(from: &state) { return ready }
                    state.reader = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            stop()
        }
    }

    /// Gives up on the relay: a waiting caller or reader throws `error`
    /// (`CancellationError` unless told), the buffer is released, and the task is
    /// cancelled unless it already completed.
    /// - Parameter beforeHeadOnly: stop only while the head has not arrived (the deadline's
    ///   alarm: once the head is in, the body is its reader's to bound, and an alarm that
    ///   fires while the caller has yet to resume must leave it alone).
    func stop(throwing error: any Error = CancellationError(), beforeHeadOnly: Bool = false) {
        let (head, reader, task): (HeadContinuation?, ChunkContinuation?, URLSessionTask?) = state.withLock { state in
            guard !state.stopped, !(beforeHeadOnly && state.headAnswered) else { return (nil, nil, nil) }
            state.stopped = true
            state.pending = []
            state.pendingStart = 0
            state.pendingCount = 0
            defer {
                state.headWaiter = nil
                state.reader = nil
            }
            let cancels = state.resumed && !state.completed && !state.cancelRequested
            if cancels { state.cancelRequested = true }
            return (state.headWaiter, state.reader, cancels ? state.task : nil)
        }
        head?.resume(throwing: error)
        reader?.resume(throwing: error)
        if let task { Self.cancel(task) }
    }

    // MARK: The delegate's side

    /// The response head arrived.
    func receive(_ response: URLResponse) {
        let waiter: HeadContinuation? = state.withLock { state in
            defer { state.headWaiter = nil }
            return state.headWaiter
        }
        waiter?.resume(returning: response)
    }

    /// A chunk of the body arrived.
    func receive(_ data: Data) {
        guard !data.isEmpty else { return }
        let (reader, overflowTask): (ChunkContinuation?, URLSessionTask?) = state.withLock { state in
            guard !state.stopped, state.end == nil else { return (nil, nil) }
            if let reader = state.reader {
                state.reader = nil
                return (reader, nil)
            }
            state.pending.append(data)
            state.pendingCount += data.count
            guard state.pendingCount > bufferLimit else { return (nil, nil) }
            state.pending = []
            state.pendingStart = 0
            state.pendingCount = 0
            let full = URLSessionTransportError.responseBufferFull(limit: bufferLimit)
            state.end = .failure(TransportError(.other, underlying: full, detail: full.description))
            guard !state.cancelRequested else { return (nil, nil) }
            state.cancelRequested = true
            return (nil, state.task)
        }
        reader?.resume(returning: data)
        if let overflowTask { Self.cancel(overflowTask) }
    }

    /// The delegate cancelled an authentication challenge of this task; `response` is
    /// the challenge's failure response.
    func challengeCancelled(failureResponse response: HTTPURLResponse?) {
        state.withLock { state in
            state.challengeCancelled = true
            if let response { state.challengeResponse = response }
        }
    }

    /// The task completed, with `error` when it failed; `response` is the task's final
    /// response, if it had one.
    ///
    /// The `URLError.cancelled` that follows a cancelled authentication challenge ends
    /// the body normally (`FoundationNetworking` delivers the challenged response and its
    /// body first); when no head was delivered, the challenge's failure response is.
    /// A task that completes without having delivered its head (`FoundationNetworking`
    /// does so for a `301`–`308` without a `Location` field, dropping its body) returns
    /// `response` with an empty body.
    func complete(_ error: (any Error)?, response: URLResponse?) {
        let cancelled = error.flatMap(URLErrorMapping.urlError(from:))?.code == .cancelled
        let (head, headResult, reader, end) = state.withLock { state in
            state.completed = true
            let challengeEnded = cancelled && state.challengeCancelled
            var headResult: Result<URLResponse, any Error>?
            if state.headWaiter != nil {
                if challengeEnded, let response = state.challengeResponse {
                    headResult = .success(response)
                } else if let error {
                    headResult = .failure(URLErrorMapping.map(error))
                } else if let response {
                    headResult = .success(response)
                } else {
                    let notHTTP = URLSessionTransportError.notHTTPResponse
                    headResult = .failure(TransportError(.other, underlying: notHTTP, detail: notHTTP.description))
                }
            }
            if state.end == nil {
                if let error, !challengeEnded {
                    state.end = .failure(URLErrorMapping.map(error))
                } else {
                    state.end = .success(())
                }
            }
            defer {
                state.headWaiter = nil
                state.reader = nil
            }
            return (state.headWaiter, headResult, state.reader, state.end)
        }
        if let head, let headResult { head.resume(with: headResult) }
        if let reader, let end {
            reader.resume(with: end.map { Data?.none })
        }
    }

    // MARK: Helpers

    private func takeReady() -> Result<Data?, any Error>? {
        state.withLock { Self.takeReady(from: &$0) }
    }

    /// What a read gets without waiting: the buffered bytes, the end, or `CancellationError`
    /// once stopped; `nil` when it has to wait.
    private static func takeReady(from state: inout State) -> Result<Data?, any Error>? {
        if state.stopped { return .failure(CancellationError()) }
        if state.pendingCount > 0 {
            // One chunk at a time: joining them would hold the waiting bytes twice.
            let chunk = state.pending[state.pendingStart]
            state.pendingStart += 1
            state.pendingCount -= chunk.count
            if state.pendingStart == state.pending.count {
                state.pending.removeAll(keepingCapacity: true)
                state.pendingStart = 0
            }
            return .success(chunk)
        }
        switch state.end {
        case .success: return .success(nil)
        case .failure(let error): return .failure(error)
        case nil: return nil
        }
    }

    /// Cancels `task` from a global queue; see the type's documentation.
    private static func cancel(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.cancel() }
    }
}
