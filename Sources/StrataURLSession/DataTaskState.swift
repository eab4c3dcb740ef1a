import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The shared state of a ``DataTaskCall``: its task and continuation, guarded by a lock
/// so that the completion handler and the cancellation handler, which run on arbitrary
/// threads, resume the continuation exactly once.
///
/// `@unchecked Sendable`: `phase` is only read and written while holding `lock`.
final class DataTaskState: @unchecked Sendable {
    typealias Continuation = CheckedContinuation<(HTTPResponse, Data), any Error>

    private enum Phase {
        /// Not started yet.
        case idle
        /// The task is running; the continuation waits for it.
        case running(URLSessionTask, Continuation)
        /// Cancelled before the task started.
        case cancelled
        /// The continuation was resumed.
        case finished
    }

    private let lock = NSLock()
    private var phase = Phase.idle

    /// Creates the task with `makeTask` and starts it, unless the call was already
    /// cancelled, in which case `continuation` throws `CancellationError` right away.
    func start(
        _ continuation: Continuation,
        makeTask: (@escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionTask
    ) {
        lock.lock()
        guard case .idle = phase else {
            lock.unlock()
            continuation.resume(throwing: CancellationError())
            return
        }
        let task = makeTask { [self] data, response, error in
            finish(data: data, response: response, error: error)
        }
        phase = .running(task, continuation)
        lock.unlock()
        // Resumed after `phase` is set, so the completion handler always finds the continuation.
        task.resume()
    }

    /// Cancels the task (from a global queue) and throws `error` (`CancellationError` unless
    /// told) from the call.
    func cancel(throwing error: any Error = CancellationError()) {
        lock.lock()
        switch phase {
        case .idle:
            phase = .cancelled
            lock.unlock()
        case .running(let task, let continuation):
            phase = .finished
            lock.unlock()
            // From a global queue: in FoundationNetworking, cancel() waits for the
            // session's work queue (see URLSessionTransport).
            DispatchQueue.global().async { task.cancel() }
            continuation.resume(throwing: error)
        case .cancelled, .finished:
            lock.unlock()
        }
    }

    /// Resumes the call with the task's outcome, unless it was cancelled meanwhile.
    private func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        lock.lock()
        guard case .running(_, let continuation) = phase else {
            lock.unlock()
            return
        }
        phase = .finished
        lock.unlock()
        continuation.resume(with: URLSessionOutcome.make(data: data, response: response, error: error))
    }
}
