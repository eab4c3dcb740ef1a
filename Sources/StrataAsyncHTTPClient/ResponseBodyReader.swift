import AsyncHTTPClient
import Foundation
import NIOCore

/// Reads an AsyncHTTPClient response body chunk by chunk, each read racing a deadline.
///
/// AsyncHTTPClient applies a request's deadline only until the response head arrives.
/// To bound the body too, a read with a deadline runs in a child task next to a timer;
/// when the timer wins, the read is cancelled, which makes AsyncHTTPClient cancel the
/// request and close the connection. So the iterator lives in this box, where a child
/// task can reach it.
///
/// `@unchecked Sendable`: `lock` guards `iterator` and `isFinished`. A read takes the
/// iterator out of the box under the lock, awaits it without the lock, and puts it back
/// under the lock; a second read arriving meanwhile finds the box empty and ends.
/// Reads do not overlap in practice: ``ResponseBodyChunks/Iterator`` reads sequentially
/// and waits for each read's child task to finish before returning.
final class ResponseBodyReader: @unchecked Sendable {
    private let lock = NSLock()
    private var iterator: HTTPClientResponse.Body.AsyncIterator?
    private var isFinished = false

    private enum Outcome: Sendable {
        case chunk(ByteBuffer?)
        case deadlinePassed
    }

    init(_ iterator: HTTPClientResponse.Body.AsyncIterator) {
        self.iterator = iterator
    }

    /// The next chunk, or `nil` at the end (and ever after, also after ``finish()``).
    /// - Throws: ``TransportError`` with kind ``TransportError/Kind/timedOut`` when
    ///   `deadline` passes first, `CancellationError` when the task is cancelled, or
    ///   AsyncHTTPClient's error.
    func next(before deadline: ContinuousClock.Instant?) async throws -> ByteBuffer? {
        if lock.withLock({ isFinished }) { return nil }
        guard let deadline else { return try await nextChunk() }
        guard deadline > .now else { throw TransportError(.timedOut) }
        return try await withThrowingTaskGroup(of: Outcome.self) { group in
            group.addTask { .chunk(try await self.nextChunk()) }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                return .deadlinePassed
            }
            defer { group.cancelAll() }
            switch try await group.next() {
            case .chunk(let buffer): return buffer
            case .deadlinePassed, nil: throw TransportError(.timedOut)
            }
        }
    }

    /// Ends the body and drops the iterator, which cancels the request if it is still running.
    func finish() {
        let dropped: HTTPClientResponse.Body.AsyncIterator? = lock.withLock {
            isFinished = true
            defer { iterator = nil }
            return iterator
        }
        // Released here, outside the lock: releasing it calls into AsyncHTTPClient.
        _ = consume dropped
    }

    private func nextChunk() async throws -> ByteBuffer? {
        guard var current = take() else { return nil }
        defer { putBack(current) }
        let buffer = try await current.next()
        if buffer == nil { finish() }
        return buffer
    }

    private func take() -> HTTPClientResponse.Body.AsyncIterator? {
        lock.withLock {
            defer { iterator = nil }
            return iterator
        }
    }

    private func putBack(_ current: HTTPClientResponse.Body.AsyncIterator) {
        lock.withLock {
            if !isFinished { iterator = current }
        }
    }
}
