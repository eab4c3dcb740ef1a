import Foundation
import HTTPTypes
import Strata
import StrataTestSupport
import Testing

@testable import StrataCompression

/// `MessageBody.gzipCompressed(level:)` stays a stream, bounded, and reads its source once;
/// `GzipPropertyTests` throws random bytes at it.
@Suite struct GzipCompressionTests {
    /// A replayable body compresses to the same bytes on every reading; its length is unknown.
    @Test func aReplayableBodyStaysReplayableWithItsLengthUnknown() async throws {
        let source = Data(String(repeating: "replay ", count: 10_000).utf8)
        let body = MessageBody(source).gzipCompressed()
        #expect(body.isReplayable)
        #expect(body.length == nil)
        let first = try await body.collect(upTo: 1 << 20)
        let second = try await body.collect(upTo: 1 << 20)
        #expect(first == second)
        #expect(try inflate(first, expecting: source.count) == source)
        #expect(first.count < 1000)
    }

    /// A body read once stays one that is read once.
    @Test func aStreamedBodyIsReadOnce() async throws {
        let body = MessageBody(length: nil, streaming: [Data("once".utf8)].async).gzipCompressed()
        #expect(!body.isReplayable)
        let once = try await body.collect(upTo: 1024)
        #expect(try inflate(once, expecting: 4) == Data("once".utf8))
        await #expect(throws: MessageBodyError.alreadyConsumed) { _ = try await body.collect(upTo: 1024) }
    }

    /// An empty body compresses to an empty gzip stream (its 20 bytes of framing).
    @Test func anEmptyBodyIsAnEmptyStream() async throws {
        let compressed = try await MessageBody(Data()).gzipCompressed().collect(upTo: 1024)
        #expect(compressed.count == 20)
        #expect(try inflate(compressed, expecting: 0) == Data())
    }

    /// 64 MiB read in 1 MiB chunks: no output chunk is larger than the input chunk it came
    /// with plus zlib's window, so memory stays bounded whatever the length.
    @Test func outputChunksStayBounded() async throws {
        let chunk = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        let body = MessageBody(length: 64 << 20) { Repeated(chunk: chunk, times: 64) }.gzipCompressed(level: .fastest)
        var largest = 0
        var compressed = Data()
        for try await piece in body {
            largest = max(largest, piece.count)
            compressed.append(piece)
        }
        let inflated = try inflate(compressed, expecting: 64 << 20)
        #expect(inflated.count == 64 << 20)
        #expect(inflated.prefix(1 << 20) == chunk)
        #expect(inflated.suffix(1 << 20) == chunk)
        #expect(largest <= (1 << 20) + GzipDeflater.windowSize)
    }

    @Test func levelsAreClamped() {
        #expect(GzipLevel(0).value == 1)
        #expect(GzipLevel(12).value == 9)
        #expect(GzipLevel.default.value == 6)
        #expect(GzipLevel.best.description == "gzip level 9")
    }
}

/// `chunk`, `times` times over.
struct Repeated: AsyncSequence, Sendable {
    typealias Element = Data
    let chunk: Data
    let times: Int

    func makeAsyncIterator() -> Iterator { Iterator(chunk: chunk, left: times) }

    struct Iterator: AsyncIteratorProtocol {
        let chunk: Data
        var left: Int
        mutating func next() async -> Data? {
            guard left > 0 else { return nil }
            left -= 1
            return chunk
        }
    }
}

extension Array where Element == Data {
    /// The chunks, as an async sequence.
    var async: AsyncStream<Data> {
        AsyncStream { continuation in
            for chunk in self { continuation.yield(chunk) }
            continuation.finish()
        }
    }
}
