import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// One request through AsyncHTTPClient's delegate API: its response head, then its body
/// part by part with back-pressure, under one deadline for all of it.
///
/// AsyncHTTPClient's `async` API applies its deadline only until the response head; its
/// delegate API applies the deadline to the whole request, body included. So a body read
/// here ends by the deadline with no timer or task of the caller's: that is what lets a
/// ``Networker`` run a call over this transport in the caller's task from start to parsed
/// value (``AsyncHTTPClientTransport/enforcesDeadline``).
///
/// The state is a plain value under one lock: AsyncHTTPClient calls the delegate methods
/// on its event loop, the reader calls ``head()`` and ``next()`` from its task, and each
/// side resumes the other outside the lock. Parts that arrive before the reader asks wait
/// here up to ``bufferLimit`` bytes; past it the connection reads on only once the reader
/// has taken them (so a small body costs no hand-off back to the event loop, and a large
/// one holds at most the limit plus a part in memory).
final class ResponseStream: HTTPClientResponseDelegate, Sendable {
    typealias Response = Void

    /// How many bytes of parts not yet read are held before the connection waits.
    static let bufferLimit = 128 * 1024

    private enum Head {
        case waiting(CheckedContinuation<HTTPResponseHead, any Error>?)
        case arrived(HTTPResponseHead)
        case failed(any Error)
    }

    private struct State {
        var head = Head.waiting(nil)
        /// Parts the reader has not taken yet, oldest first, and their size.
        var parts = CircularBuffer<ByteBuffer>()
        var bufferedBytes = 0
        /// Completed when the reader has taken enough of `parts`: AsyncHTTPClient waits for
        /// it to read on.
        var demand: EventLoopPromise<Void>?
        /// The reader waiting for the next part.
        var reader: CheckedContinuation<ByteBuffer?, any Error>?
        /// How the body ended, once it did.
        var end: Result<Void, any Error>?
        /// The request, once it is under way; `cancelled` when it was cancelled before.
        var task: HTTPClient.Task<Void>?
        var cancelled = false
    }

    private let state = Locked(State())

    /// Starts `request` on `client`, due by `deadline`.
    init(_ request: HTTPClient.Request, on client: HTTPClient, deadline: NIODeadline?) {
        let task = client.execute(request: request, delegate: self, deadline: deadline)
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
        // A request AsyncHTTPClient refuses before it starts (a client already shut down)
        // fails its task without a word to the delegate.
        task.futureResult.whenFailure { [self] error in fail(error) }
    }

    /// Stops the request; the head and body readers get AsyncHTTPClient's `cancelled`.
    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// Stops the request unless its body has ended: its reader went away.
    func abandon() {
        let task = state.withLock { $0.end == nil ? $0.task : nil }
        task?.cancel()
    }

    /// The response head, once it arrives.
    /// - Throws: what the request failed with; AsyncHTTPClient's `cancelled` when the
    ///   calling task is cancelled.
    func head() async throws -> HTTPResponseHead {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<HTTPResponseHead, any Error>? in
                    switch state.head {
                    case .waiting:
                        state.head = .waiting(continuation)
                        return nil
                    case .arrived(let head): return .success(head)
                    case .failed(let error): return .failure(error)
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The next part of the body, or `nil` at its end.
    /// - Throws: what the request failed with (a deadline that passed is AsyncHTTPClient's
    ///   `deadlineExceeded`); its `cancelled` when the calling task is cancelled.
    func next() async throws -> ByteBuffer? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (ready, demand) = state.withLock {
                    state -> (Result<ByteBuffer?, any Error>?, EventLoopPromise<Void>?) in
                    if let part = state.parts.popFirst() {
                        state.bufferedBytes -= part.readableBytes
                        guard state.bufferedBytes < Self.bufferLimit else { return (.success(part), nil) }
                        defer { state.demand = nil }
                        return (.success(part), state.demand)
                    }
                    switch state.end {
                    case .success: return (.success(nil), nil)
                    case .failure(let error): return (.failure(error), nil)
                    case nil:
                        state.reader = continuation
                        return (nil, nil)
                    }
                }
                demand?.succeed(())
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    // MARK: HTTPClientResponseDelegate

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let waiter = state.withLock { state -> CheckedContinuation<HTTPResponseHead, any Error>? in
            guard case .waiting(let waiter) = state.head else { return nil }
            state.head = .arrived(head)
            return waiter
        }
        waiter?.resume(returning: head)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let (reader, demand) = state.withLock {
            state -> (CheckedContinuation<ByteBuffer?, any Error>?, EventLoopFuture<Void>) in
            if let reader = state.reader {
                state.reader = nil
                return (reader, task.eventLoop.makeSucceededVoidFuture())
            }
            state.parts.append(buffer)
            state.bufferedBytes += buffer.readableBytes
            guard state.bufferedBytes >= Self.bufferLimit else {
                return (nil, task.eventLoop.makeSucceededVoidFuture())
            }
            let promise = task.eventLoop.makePromise(of: Void.self)
            state.demand = promise
            return (nil, promise.futureResult)
        }
        reader?.resume(returning: buffer)
        return demand
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        let reader = state.withLock { state in
            state.end = .success(())
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(returning: nil)
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        fail(error)
    }

    /// Ends the request with `error`, unless its head or body already ended otherwise.
    private func fail(_ error: any Error) {
        let (headWaiter, reader, demand) = state.withLock { state in
            var headWaiter: CheckedContinuation<HTTPResponseHead, any Error>?
            if case .waiting(let waiter) = state.head {
                state.head = .failed(error)
                headWaiter = waiter
            }
            if state.end == nil { state.end = .failure(error) }
            defer {
                state.reader = nil
                state.demand = nil
            }
            return (headWaiter, state.reader, state.demand)
        }
        headWaiter?.resume(throwing: error)
        reader?.resume(throwing: error)
        demand?.succeed(())
    }
}

/// The body of a ``ResponseStream`` as the `Data` chunks of a streamed ``MessageBody``.
///
/// Chunks come straight from the connection, one at a time, with back-pressure: nothing
/// is buffered here, and no timer runs per read (the request's deadline covers them).
/// When the body is dropped before its end (every copy of the sequence and its
/// iterators), the request is cancelled, which closes the connection. Failures arrive
/// classified as ``TransportError`` (or `CancellationError`).
struct ResponseBodyChunks: AsyncSequence, Sendable {
    typealias Element = Data

    /// Cancels the request when the last reference to the body goes.
    final class Reader: Sendable {
        let stream: ResponseStream
        let deadline: ContinuousClock.Instant?

        init(_ stream: ResponseStream, deadline: ContinuousClock.Instant?) {
            self.stream = stream
            self.deadline = deadline
        }

        deinit {
            stream.abandon()
        }
    }

    private let reader: Reader

    /// The body of `stream`; `deadline` tells a timeout from a cancellation in its errors.
    init(_ stream: ResponseStream, deadline: ContinuousClock.Instant?) {
        self.reader = Reader(stream, deadline: deadline)
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(reader: reader)
    }

    /// Reads the chunks one by one.
    struct Iterator: AsyncIteratorProtocol {
        fileprivate let reader: Reader

        /// The next chunk, or `nil` at the end of the body.
        /// - Throws: `CancellationError` when the task is cancelled, ``TransportError``
        ///   for other failures.
        mutating func next() async throws -> Data? {
            do {
                return try await reader.stream.next().map { Data(buffer: $0) }
            } catch {
                throw TransportErrorClassifier.classify(error, deadline: reader.deadline)
            }
        }
    }
}
