import Foundation
import PropertyBased
import Strata
import Testing

@testable import StrataCompression

/// `MessageBody.gzipCompressed(level:)`: what it writes inflates to what it read, for random
/// bytes in random chunks at every level.
@Suite struct GzipPropertyTests {
    /// Random bytes, sometimes repetitive (so that zlib has matches to find), in random chunks.
    static let chunkedBytes = Generator<[Data], Shrink.None<[Data]>> { rng in
        (0..<Int.random(in: 0...6, using: &rng)).map { _ in
            let count = [0, 1, 17, 1000, 70_000, 200_000].randomElement(using: &rng)!
            if Bool.random(using: &rng) {
                return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) })
            }
            let word = Array("strata gzip \(Int.random(in: 0...99, using: &rng)) ".utf8)
            return Data((0..<count).map { word[$0 % word.count] })
        }
    }

    @Test func randomChunksRoundTripAtEveryLevel() async {
        await propertyCheck(count: 60, input: Self.chunkedBytes, Gen.int(in: 1...9)) { chunks, level in
            let source = chunks.reduce(into: Data()) { $0.append($1) }
            let body = MessageBody(length: Int64(source.count)) { chunks.async }
            let compressed = try await body.gzipCompressed(level: GzipLevel(level)).collect(upTo: 1 << 24)
            #expect(compressed.prefix(2) == Data([0x1f, 0x8b]))  // gzip's magic
            let inflated = try inflate(compressed, expecting: source.count)
            #expect(inflated == source)
        }
    }
}
