import Foundation
import PropertyBased
import StrataTestSupport
import Testing

@testable import Strata

/// ``URLEncodedFormEncoder/KeyEncoding/convertToSnakeCase`` against `JSONEncoder`'s own
/// `.convertToSnakeCase`, on random keys: camel case, capitals runs, underscores, digits
/// and any Unicode.
@Suite(.runsAlone) struct KeyEncodingPropertyTests {
    private static let pieces = [
        "my", "URL", "Property", "_", "__", "a", "B", "ID", "x1", "Ç", "ß", "é", "ǅ", "Σ", "9",
    ]

    /// Camel-case-like keys built from word pieces, mixed with random strings.
    static let keys = Generator<String, Shrink.None<String>> { rng in
        if Bool.random(using: &rng) {
            return PropertyGen.string(length: 0...12, using: &rng)
        }
        return (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
    }

    @Test func snakeCaseMatchesJSONEncoder() async throws {
        await propertyCheck(count: 1500, input: Self.keys) { key in
            let foundation = try JSONEncoderKeys.snakeCased(key)
            #expect(URLEncodedFormEncoder.KeyEncoding.convertToSnakeCase.encode(key) == foundation)
        }
    }
}
