import AsyncHTTPClient
import Foundation
import NIOFoundationCompat

/// An AsyncHTTPClient response body as the `Data` chunks of a streamed ``MessageBody``.
///
/// Chunks come straight from the connection, one at a time, with AsyncHTTPClient's
/// back-pressure: nothing is buffered here. Each read ends by `deadline`, and failures
/// arrive classified as ``TransportError`` (or `CancellationError`). After a failure
/// the request is cancelled and the iterator ends.
struct ResponseBodyChunks: AsyncSequence, Sendable {
    typealias Element = Data

    private let body: HTTPClientResponse.Body
    private let deadline: ContinuousClock.Instant?

    /// Streams `body`, giving up with ``TransportError/Kind/timedOut`` once `deadline` passes.
    init(_ body: HTTPClientResponse.Body, deadline: ContinuousClock.Instant?) {
        self.body = body
        self.deadline = deadline
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(reader: ResponseBodyReader(body.makeAsyncIterator()), deadline: deadline)
    }

    /// Reads the chunks one by one.
    ///
    /// Its state lives in the shared ``ResponseBodyReader``, so a copy of the iterator
    /// (as made by a wrapper that loses its copy when `next()` throws) still sees
    /// the end of the body after a failure.
    struct Iterator: AsyncIteratorProtocol {
        fileprivate let reader: ResponseBodyReader
        fileprivate let deadline: ContinuousClock.Instant?

        fileprivate init(reader: ResponseBodyReader, deadline: ContinuousClock.Instant?) {
            self.reader = reader
            self.deadline = deadline
        }

        /// The next chunk, or `nil` at the end of the body (and after a failure).
        /// - Throws: `CancellationError` when the task is cancelled, ``TransportError``
        ///   (``TransportError/Kind/timedOut`` once the deadline passes) for other failures.
        func next() async throws -> Data? {
            do {
                return try await reader.next(before: deadline).map { Data(buffer: $0) }
            } catch {
                reader.finish()
                throw TransportErrorClassifier.classify(error, deadline: deadline)
            }
        }
    }
}
