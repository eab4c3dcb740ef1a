import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One `URLSession` data or upload task run with a completion handler, for a session
/// the transport borrowed (its delegate is not a ``SessionDelegate``, so the task's
/// events cannot be had one by one), bridged to Swift concurrency: cancelling the
/// calling task cancels the `URLSessionTask` and throws `CancellationError` at once,
/// without waiting for `URLSession` to report the cancellation.
struct DataTaskCall: Sendable {
    let session: URLSession
    let request: URLRequest
    /// The request body, sent with an upload task; `nil` sends a plain data task.
    let body: URLSessionTransport.Upload?
    /// When the call gives up: the task is cancelled then, and ``run()`` throws
    /// ``TransportError/Kind/timedOut``.
    let deadline: ContinuousClock.Instant?

    /// Runs the task to completion.
    /// - Returns: the final response head (after the redirects the session's delegate
    ///   allowed) and the whole body.
    /// - Throws: `CancellationError`, or a ``TransportError`` classifying the failure
    ///   (``TransportError/Kind/timedOut`` at the deadline).
    func run() async throws -> (HTTPResponse, Data) {
        let state = DataTaskState()
        let alarm = deadline.map {
            DeadlineAlarm(deadline: $0) { state.cancel(throwing: URLSessionTransport.deadlinePassed) }
        }
        defer { alarm?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                state.start(continuation, makeTask: makeTask)
            }
        } onCancel: {
            state.cancel()
        }
    }

    private func makeTask(
        _ completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionTask {
        switch body {
        case .data(let data): session.uploadTask(with: request, from: data, completionHandler: completion)
        case .file(let file): session.uploadTask(with: request, fromFile: file, completionHandler: completion)
        case nil: session.dataTask(with: request, completionHandler: completion)
        }
    }
}
