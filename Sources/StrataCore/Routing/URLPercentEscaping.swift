import Foundation

/// Percent-escapes URL components so that `URLComponents.percentEncodedPath` and
/// `percentEncodedQuery` always accept them (those setters trap on invalid input).
///
/// Works byte by byte on the UTF-8: a `%` followed by two hex digits is kept as the
/// escape it is; a `%` that is not (`100%`, `%zz`, `%2`) becomes `%25`; every other
/// byte that is not an allowed ASCII character (spaces, brackets, `#`, control
/// characters, the bytes of non-ASCII characters) is written as `%XX`, uppercase.
package enum URLPercentEscaping {
    /// Path characters kept as they are: `CharacterSet.urlPathAllowed` (RFC 3986 `pchar` and `/`).
    static let pathAllowed = asciiTable(.urlPathAllowed)
    /// Query characters kept as they are: `CharacterSet.urlQueryAllowed`, which keeps `&`,
    /// `=`, `?`, `/` and the other RFC 3986 query characters.
    static let queryAllowed = asciiTable(.urlQueryAllowed)

    /// The uppercase hexadecimal digits, for writing `%XX`.
    private static let hexDigits = Array("0123456789ABCDEF".utf8)
    private static let percent = UInt8(ascii: "%")

    /// `text` with every byte that is neither allowed nor part of a valid `%XX` escape
    /// percent-escaped.
    static func escape(_ text: some StringProtocol, allowed: [Bool]) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == percent {
                if index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) {
                    output.append(contentsOf: bytes[index...index + 2])
                    index += 3
                    continue
                }
                appendEscape(of: percent, to: &output)
            } else if byte < 0x80, allowed[Int(byte)] {
                output.append(byte)
            } else {
                appendEscape(of: byte, to: &output)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `%XX` (uppercase hexadecimal) for `byte` to `output`.
    package static func appendEscape(of byte: UInt8, to output: inout [UInt8]) {
        output.append(percent)
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
    }

    /// The bytes of `text` with every valid `%XX` escape decoded and everything else
    /// (a lone `%` included) kept as it is.
    package static func decodedBytes(_ text: some StringProtocol) -> [UInt8] {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == percent, index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    /// Whether `byte` is an ASCII hexadecimal digit.
    static func isHexDigit(_ byte: UInt8) -> Bool {
        hexValue(byte) != nil
    }

    /// The value of the ASCII hexadecimal digit `byte`, or `nil` when it is none.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether each ASCII byte (the index) is in `set`; `%` never is, escapes are handled apart.
    private static func asciiTable(_ set: CharacterSet) -> [Bool] {
        (0..<128).map { byte in
            byte != Int(percent) && set.contains(Unicode.Scalar(UInt8(byte)))
        }
    }
}
