import AsyncHTTPClient
import Foundation
import NIOFoundationCompat

/// An AsyncHTTPClient response body as the `Data` chunks of a streamed ``MessageBody``.
///
/// Chunks come straight from the connection, one at a time, with AsyncHTTPClient's
/// back-pressure: nothing is buffered here, and no timer runs per read. The caller's
/// deadline bounds the reads: the ``Networker`` cancels the reading task when it
/// passes, which makes AsyncHTTPClient cancel the request and close the connection.
/// Failures arrive classified as ``TransportError`` (or `CancellationError`).
struct ResponseBodyChunks: AsyncSequence, Sendable {
    typealias Element = Data

    private let body: HTTPClientResponse.Body
    private let deadline: ContinuousClock.Instant?
    private let owner: OwnedClient?

    /// Streams `body`; `deadline` tells a timeout from a cancellation in AsyncHTTPClient's
    /// errors; `owner`, the transport's own client, stays alive while the body does.
    init(_ body: HTTPClientResponse.Body, deadline: ContinuousClock.Instant?, keepingAlive owner: OwnedClient?) {
        self.body = body
        self.deadline = deadline
        self.owner = owner
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(upstream: body.makeAsyncIterator(), deadline: deadline, owner: owner)
    }

    /// Reads the chunks one by one.
    struct Iterator: AsyncIteratorProtocol {
        fileprivate var upstream: HTTPClientResponse.Body.AsyncIterator
        fileprivate let deadline: ContinuousClock.Instant?
        fileprivate let owner: OwnedClient?

        /// The next chunk, or `nil` at the end of the body.
        /// - Throws: `CancellationError` when the task is cancelled, ``TransportError``
        ///   for other failures.
        mutating func next() async throws -> Data? {
            do {
                return try await upstream.next().map { Data(buffer: $0) }
            } catch {
                throw TransportErrorClassifier.classify(error, deadline: deadline)
            }
        }
    }
}
