import Foundation
import HTTPTypes
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `URLSession` data or upload task, run with a completion handler (no task
/// delegate) and bridged to Swift concurrency: cancelling the calling task cancels the
/// `URLSessionTask` and throws `CancellationError` at once, without waiting for
/// `URLSession` to report the cancellation.
struct DataTaskCall: Sendable {
    let session: URLSession
    /// The session's delegate, when the transport created the session: it hands over
    /// the `401` of a cancelled authentication challenge.
    let challenges: ChallengeDelegate?
    let request: URLRequest
    /// The request body, sent with an upload task; `nil` sends a plain data task.
    let body: Data?

    /// Runs the task to completion.
    /// - Returns: the final response head (after redirects) and the whole body.
    /// - Throws: `CancellationError`, or a ``TransportError`` classifying the failure.
    func run() async throws -> (HTTPResponse, Data) {
        let state = DataTaskState(challenges: challenges)
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
        if let body {
            session.uploadTask(with: request, from: body, completionHandler: completion)
        } else {
            session.dataTask(with: request, completionHandler: completion)
        }
    }
}
