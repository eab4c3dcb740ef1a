import Foundation

/// The body of a streamed `URLSession` response, as the `Data` chunks of a one-shot
/// ``MessageBody``: each read takes what the ``SessionTaskRelay`` has buffered, or waits for
/// the next chunk.
///
/// The sequence and its iterator share one ``Reader``; when the last of them goes away
/// (the body was dropped, read to its end, or never read), the reader stops the
/// relay, which cancels the `URLSessionTask` if it is still running. A read whose
/// task is cancelled throws `CancellationError` and stops the relay too. Failures
/// arrive classified as ``TransportError``.
struct URLSessionBodyChunks: AsyncSequence, Sendable {
    typealias Element = Data

    /// Stops the relay when the last reference to it goes away.
    final class Reader: Sendable {
        let relay: SessionTaskRelay

        init(_ relay: SessionTaskRelay) {
            self.relay = relay
        }

        deinit {
            relay.stop()
        }
    }

    private let reader: Reader

    /// Streams the body of `relay`; dropping the sequence and its iterators stops it.
    init(_ relay: SessionTaskRelay) {
        self.reader = Reader(relay)
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(reader: reader)
    }

    /// Reads the chunks one by one.
    struct Iterator: AsyncIteratorProtocol {
        fileprivate let reader: Reader

        /// The next chunk, or `nil` at the end.
        mutating func next() async throws -> Data? {
            try await reader.relay.next()
        }
    }
}
