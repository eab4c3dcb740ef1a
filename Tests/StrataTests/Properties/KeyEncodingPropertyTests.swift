import Foundation
import PropertyBased
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// ``URLEncodedFormEncoder/KeyEncoding/convertToSnakeCase`` against `JSONEncoder`'s own
/// `.convertToSnakeCase`, on random keys: camel case, capitals runs, underscores, digits
/// and any Unicode.
@Suite(.runsAlone) struct KeyEncodingPropertyTests {
    private static let pieces = [
        "my", "URL", "Property", "_", "__", "a", "B", "ID", "x1", "Ç", "ß", "é", "ǅ", "Σ", "9", "\u{A7CC}", "\u{A7CD}",
        "\u{1C89}",
    ]

    /// Camel-case-like keys built from word pieces, mixed with random strings.
    static let keys = Generator<String, Shrink.None<String>> { rng in
        if Bool.random(using: &rng) {
            return PropertyGen.string(length: 0...12, using: &rng)
        }
        return (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
    }

    /// Capitals newer than Foundation's `CharacterSet` tables (Unicode 16) split words as
    /// in `JSONEncoder`, and so do small letters (found by a CI run's random key,
    /// `rA%` `U+A7CD` `%a1`).
    @Test func snakeCaseSplitsAtCapitalsOfNewUnicodeVersions() throws {
        for key in ["rA%\u{A7CD}%a1", "a\u{A7CC}b", "x\u{1C89}\u{10D50}y", "AB\u{A7CD}"] {
            #expect(
                URLEncodedFormEncoder.KeyEncoding.convertToSnakeCase.encode(key)
                    == (try JSONEncoderKeys.snakeCased(key)))
        }
        #expect(URLEncodedFormEncoder.KeyEncoding.convertToSnakeCase.encode("rA%\u{A7CD}%a1") == "r_a_%\u{A7CD}%a1")
        #expect(URLEncodedFormEncoder.KeyEncoding.convertToSnakeCase.encode("a\u{A7CC}b") == "a_\u{A7CD}b")
    }

    @Test func snakeCaseMatchesJSONEncoder() async throws {
        await propertyCheck(count: 1500, input: Self.keys) { key in
            let foundation = try JSONEncoderKeys.snakeCased(key)
            #expect(URLEncodedFormEncoder.KeyEncoding.convertToSnakeCase.encode(key) == foundation)
        }
    }
}
