import Foundation
import PropertyBased

@testable import Strata
@testable import StrataCore

/// Generators shared by the property tests: Unicode strings heavy in the characters
/// that break URLs, headers and multipart bodies, random bytes, and random ``JSON``.
enum PropertyGen {
    /// Characters that have a meaning in URLs, queries, headers or multipart bodies, or
    /// that are easy to mishandle: delimiters, whitespace, controls, non-ASCII, combining
    /// marks, line separators.
    static let dangerousScalars: [Unicode.Scalar] = [
        "%", "%", "%", "#", "?", "?", "[", "]", "/", "/", "&", "=", " ", "+", ";", ":", "@",
        "\"", "'", "\\", "<", ">", "{", "}", "|", "^", "`", "*", ",", "~", ".",
        "\r", "\n", "\t", "\u{0}", "\u{7F}", "\u{85}", "\u{A0}", "\u{2028}", "\u{FEFF}",
        "é", "\u{301}", "\u{1F600}", "\u{10FFFF}", "\u{FFFD}", "ß", "中",
    ]

    private static let hexDigits = Array("0123456789abcdefABCDEF".unicodeScalars)
    private static let alphanumerics = Array(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".unicodeScalars)

    /// One random piece of a string: a dangerous character, a `%` followed by zero to two
    /// hex digits, a letter or digit, printable ASCII, a control character, or any scalar.
    static func token(using rng: inout some RandomNumberGenerator) -> [Unicode.Scalar] {
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<30:
            return [dangerousScalars.randomElement(using: &rng)!]
        case 30..<45:
            let digits = Int.random(in: 0...2, using: &rng)
            return ["%"] + (0..<digits).map { _ in hexDigits.randomElement(using: &rng)! }
        case 45..<70:
            return [alphanumerics.randomElement(using: &rng)!]
        case 70..<80:
            return [Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &rng))]
        case 80..<85:
            return [Unicode.Scalar(UInt8.random(in: 0x00...0x1F, using: &rng))]
        default:
            return [anyScalar(using: &rng)]
        }
    }

    /// Any Unicode scalar, with a bias towards the BMP.
    static func anyScalar(using rng: inout some RandomNumberGenerator) -> Unicode.Scalar {
        while true {
            let upper: UInt32 = Bool.random(using: &rng) ? 0xFFFF : 0x10FFFF
            if let scalar = Unicode.Scalar(UInt32.random(in: 0...upper, using: &rng)) {
                return scalar
            }
        }
    }

    /// A random string of `length` tokens (see ``token(using:)``).
    static func string(length: ClosedRange<Int>, using rng: inout some RandomNumberGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: length, using: &rng) {
            scalars.append(contentsOf: token(using: &rng))
        }
        return String(scalars)
    }

    /// Random Unicode strings of up to 24 tokens, heavy in dangerous characters.
    static func unicodeString(length: ClosedRange<Int> = 0...24) -> Generator<String, Shrink.None<String>> {
        Generator { rng in string(length: length, using: &rng) }
    }

    /// Random bytes: uniformly random, mostly ASCII, or valid JSON text with a few bytes
    /// changed, inserted or removed (so decoders get past the first byte).
    static let bytes = Generator<Data, Shrink.None<Data>> { rng in
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            return Data((0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
        case 1:
            return Data(string(length: 0...32, using: &rng).utf8)
        default:
            var data = Array(jsonText(json(depth: 3, using: &rng)).utf8)
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                mutate(&data, using: &rng)
            }
            return Data(data)
        }
    }

    /// Changes, inserts or removes one byte, or cuts the tail.
    static func mutate(_ data: inout [UInt8], using rng: inout some RandomNumberGenerator) {
        let interesting: [UInt8] = Array("{}[]\",:0-.eE\\u".utf8) + [0x00, 0x80, 0xC3, 0xED, 0xF4, 0xFF]
        let byte =
            Bool.random(using: &rng) ? interesting.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
        switch Int.random(in: 0..<4, using: &rng) {
        case 0 where !data.isEmpty: data[Int.random(in: 0..<data.count, using: &rng)] = byte
        case 1: data.insert(byte, at: Int.random(in: 0...data.count, using: &rng))
        case 2 where !data.isEmpty: data.remove(at: Int.random(in: 0..<data.count, using: &rng))
        case 3 where !data.isEmpty: data.removeLast(Int.random(in: 0...data.count, using: &rng))
        default: break
        }
    }

    /// Random ``JSON`` values of at most `depth` levels.
    static func jsonValues(depth: Int = 3) -> Generator<JSON, Shrink.None<JSON>> {
        Generator { rng in json(depth: depth, using: &rng) }
    }

    /// Random ``JSON`` objects of at most `depth` levels.
    static func jsonObjects(depth: Int = 3) -> Generator<JSON, Shrink.None<JSON>> {
        Generator { rng in object(depth: depth, using: &rng) }
    }

    /// A random ``JSON`` value: scalars, strings from ``string(length:using:)``, and
    /// arrays and objects down to `depth`.
    static func json(depth: Int, using rng: inout some RandomNumberGenerator) -> JSON {
        let kinds = depth > 0 ? 8 : 6
        switch Int.random(in: 0..<kinds, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .integer(integer(using: &rng))
        case 3: return .double(double(using: &rng))
        case 4, 5: return .string(string(length: 0...12, using: &rng))
        case 6: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in json(depth: depth - 1, using: &rng) })
        default: return object(depth: depth - 1, using: &rng)
        }
    }

    /// A random ``JSON`` object.
    static func object(depth: Int, using rng: inout some RandomNumberGenerator) -> JSON {
        var members: [String: JSON] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            members[string(length: 0...8, using: &rng)] = json(depth: max(depth, 0), using: &rng)
        }
        return .object(members)
    }

    /// Integers with a high share of the extremes.
    static func integer(using rng: inout some RandomNumberGenerator) -> Int {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: [Int.min, Int.max, 0, -1, 1, 128, 255, 256, 65_536, Int(Int32.max) + 1].randomElement(using: &rng)!
        case 1: Int.random(in: .min ... .max, using: &rng)
        default: Int.random(in: -1000...1000, using: &rng)
        }
    }

    /// Finite doubles with a fractional part, so that they stay doubles through JSON text.
    static func double(using rng: inout some RandomNumberGenerator) -> Double {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: [0.5, -0.5, 1e-300, 1.5e300, -1.7976931348623157e308, 3.4028236e38, 0.1].randomElement(using: &rng)!
        default: Double(Int.random(in: -100_000...100_000, using: &rng)) + 0.25
        }
    }

    /// `json` as JSON text, or `"null"` when it cannot be encoded.
    static func jsonText(_ json: JSON) -> String {
        guard let data = try? JSONEncoder().encode(json) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Byte-level helpers for stating facts about percent-escaped text.
enum PercentText {
    /// Whether every `%` in `text` starts a `%XX` escape with two hex digits.
    static func hasOnlyValidEscapes(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count,
                    URLPercentEscaping.isHexDigit(bytes[index + 1]),
                    URLPercentEscaping.isHexDigit(bytes[index + 2])
                else { return false }
                index += 3
            } else {
                index += 1
            }
        }
        return true
    }

    /// Whether every character of `text` is ASCII and either `%` or in `allowed`.
    static func isEscaped(_ text: String, allowed: CharacterSet) -> Bool {
        text.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "%" || allowed.contains($0)) }
    }
}

extension Array where Element: Equatable {
    /// Whether the array ends with `suffix`.
    func hasSuffix(_ suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
