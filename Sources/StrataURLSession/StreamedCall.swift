import Foundation
import HTTPTypes
import Strata

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request on a session whose delegate is a ``SessionDelegate``: a data or upload
/// task without a completion handler, whose events the delegate routes to a
/// ``SessionTaskRelay``. ``run()`` returns when the head arrives; the body streams.
struct StreamedCall: Sendable {
    let session: URLSession
    let delegate: SessionDelegate
    let request: URLRequest
    /// The request body, sent with an upload task; `nil` sends a plain data task.
    let body: URLSessionTransport.Upload?
    /// Told the bytes of `body` sent so far (``MessageBody/sentBytesHandler``).
    let sentBytesHandler: (@Sendable (Int64) -> Void)?
    /// The most response bytes that may wait unread.
    let bufferLimit: Int
    /// When the call gives up waiting for the head: the task is cancelled then, and
    /// ``run(method:)`` throws ``TransportError/Kind/timedOut``. The body is read within
    /// the caller's own deadline.
    let deadline: ContinuousClock.Instant?

    /// Starts the task and waits for the response head.
    ///
    /// Cancelling the calling task while it waits cancels the `URLSessionTask` and throws
    /// `CancellationError` at once.
    /// - Parameter method: the request's method, which decides whether the response can
    ///   have a body.
    /// - Returns: the head (with its standard reason phrase) and the body: `nil` when the
    ///   response cannot have one (the task is then awaited to its end), otherwise a
    ///   streamed ``MessageBody`` whose length is the `Content-Length` of a body that is
    ///   not content-encoded.
    /// - Throws: `CancellationError`, or a ``TransportError`` classifying the failure
    ///   (``TransportError/Kind/timedOut`` at the deadline).
    func run(method: HTTPRequest.Method) async throws -> (HTTPResponse, MessageBody?) {
        let relay = SessionTaskRelay(bufferLimit: bufferLimit, sentBytesHandler: sentBytesHandler)
        let alarm = deadline.map {
            DeadlineAlarm(deadline: $0) {
                relay.stop(throwing: URLSessionTransport.deadlinePassed, beforeHeadOnly: true)
            }
        }
        defer { alarm?.cancel() }
        // Owns the relay from here on: leaving this function by an error, or dropping
        // the body, stops it.
        let chunks = URLSessionBodyChunks(relay)
        let delegate = self.delegate
        let task = makeTask()
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                relay.start(task, continuation: continuation) { delegate.register($0, for: $1) }
            }
        } onCancel: {
            relay.stop()
        }
        let head = try URLSessionTransport.head(of: response)
        guard !head.cannotHaveBody(respondingTo: method) else {
            try await Self.awaitEnd(of: chunks)
            return (head, nil)
        }
        return (head, MessageBody(length: URLSessionTransport.declaredLength(of: head), streaming: chunks))
    }

    private func makeTask() -> URLSessionTask {
        switch body {
        case .data(let data): session.uploadTask(with: request, from: data)
        case .file(let file): session.uploadTask(with: request, fromFile: file)
        case nil: session.dataTask(with: request)
        }
    }

    /// Waits for the task of a response without a body to complete, so that nothing
    /// outlives the call; bytes that arrive anyway are discarded, and a failure after a
    /// complete head is ignored.
    private static func awaitEnd(of chunks: URLSessionBodyChunks) async throws {
        do {
            for try await _ in chunks {}
        } catch is TransportError {
            return
        }
    }
}
