import Foundation

extension MessageBody {
    /// What is told about one reading of a body: each chunk as it is read, then the end
    /// (`nil`) or the error the reading failed with, once.
    package typealias ReadingWatch = (chunk: @Sendable (Data) -> Void, end: @Sendable ((any Error)?) -> Void)

    /// This body, as replayable as it is, with each reading of it watched: `watch` is called
    /// when a reading starts and returns what is told of that reading's chunks and end.
    /// Progress reports, telemetry and recordings wrap bodies this way.
    package func watched(_ watch: @escaping @Sendable () -> ReadingWatch) -> MessageBody {
        let chunks = WatchedChunks(base: self, watch: watch)
        return isReplayable ? MessageBody(length: length) { chunks } : MessageBody(length: length, streaming: chunks)
    }
}

/// The chunks of a body, each reading told to its watch.
private struct WatchedChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let base: MessageBody
    let watch: @Sendable () -> MessageBody.ReadingWatch

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), watch: watch()) }

    struct Iterator: AsyncIteratorProtocol {
        var base: MessageBody.AsyncIterator
        let watch: MessageBody.ReadingWatch
        var ended = false

        mutating func next() async throws -> Data? {
            guard !ended else { return nil }
            do {
                guard let chunk = try await base.next() else {
                    ended = true
                    watch.end(nil)
                    return nil
                }
                watch.chunk(chunk)
                return chunk
            } catch {
                ended = true
                watch.end(error)
                throw error
            }
        }
    }
}
