import Foundation

extension MultipartFormData {
    /// The encoded body of a ``MultipartFormData`` as an asynchronous sequence of chunks;
    /// made by ``MultipartFormData/makeChunks(chunkSize:)``.
    ///
    /// The sequence is a `Sendable` value and replayable: each iterator reads the whole
    /// body from the start, independently of other iterators.
    public struct Chunks: AsyncSequence, Sendable {
        /// A chunk of encoded bytes.
        public typealias Element = Data
        /// Iteration throws ``MultipartError`` or `CancellationError`.
        public typealias Failure = any Error

        let segments: [MultipartSegment]
        let chunkSize: Int

        /// Starts a fresh read of the body.
        public func makeAsyncIterator() -> Iterator {
            Iterator(reader: MultipartBodyReader(segments: segments), chunkSize: chunkSize)
        }

        /// Reads one pass over the body. Not `Sendable`: it owns the open file handle.
        public struct Iterator: AsyncIteratorProtocol {
            /// A chunk of encoded bytes.
            public typealias Element = Data
            /// Iteration throws ``MultipartError`` or `CancellationError`.
            public typealias Failure = any Error

            var reader: MultipartBodyReader
            let chunkSize: Int

            /// The next chunk, or `nil` after the last one (and after an error).
            public mutating func next() async throws -> Data? {
                guard !reader.isFinished else { return nil }
                if Task.isCancelled {
                    reader.finish()
                    throw CancellationError()
                }
                return try reader.read(maxBytes: chunkSize)
            }
        }
    }
}
