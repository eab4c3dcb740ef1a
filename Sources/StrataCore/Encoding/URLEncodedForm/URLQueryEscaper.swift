import Foundation

/// Percent-escapes the keys and values of URL-encoded form data (RFC 3986).
///
/// ASCII characters in the allowed set are kept; every other character is written as
/// the percent-escaped bytes of its UTF-8 encoding, with uppercase hex digits
/// (`é` → `%C3%A9`). Non-ASCII characters are always escaped, even when the set
/// contains them, so the output is plain ASCII. A space is written as the
/// ``URLEncodedFormEncoder/SpaceEncoding`` says, whatever the set.
package struct URLQueryEscaper: Sendable {
    /// The ASCII bytes left unescaped.
    private let allowed: ASCIIByteSet
    /// The bytes written for a space.
    private let spaceReplacement: [UInt8]
    /// Whether decimal digits and `-` are all allowed, so that an integer's text needs no escaping.
    let keepsIntegers: Bool

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
    private static let space = UInt8(ascii: " ")
    private static let percent = UInt8(ascii: "%")
    /// The bytes of an integer's text.
    private static let integerBytes = ASCIIByteSet("-0123456789".utf8)

    /// An escaper keeping the ASCII bytes in `allowedASCII` (see ``allowedASCII(in:)``).
    package init(allowedASCII: ASCIIByteSet, spaceEncoding: URLEncodedFormEncoder.SpaceEncoding) {
        allowed = allowedASCII
        spaceReplacement = spaceEncoding.replacement
        keepsIntegers = allowedASCII.isSuperset(of: Self.integerBytes)
    }

    /// The ASCII bytes in `set`.
    static func allowedASCII(in set: CharacterSet) -> ASCIIByteSet {
        ASCIIByteSet((0..<128).filter { set.contains(Unicode.Scalar(UInt8($0))) }.map(UInt8.init))
    }

    /// ``allowedASCII(in:)`` of `CharacterSet.strataURLQueryAllowed`, worked out once.
    package static let defaultAllowedASCII = allowedASCII(in: .strataURLQueryAllowed)

    /// `text` with every character that is not allowed percent-escaped.
    package func escape(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        append(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `text` to `output` with every character that is not allowed percent-escaped.
    func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { append($0, to: &output) }
    }

    /// Appends the UTF-8 text `bytes` to `output` with every character that is not allowed
    /// percent-escaped: runs of allowed bytes are copied at once, the others written one by one.
    func append(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var runStart = 0
        for index in bytes.indices {
            let byte = bytes[index]
            if byte != Self.space && allowed.contains(byte) { continue }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            if byte == Self.space {
                output.append(contentsOf: spaceReplacement)
            } else {
                output.append(Self.percent)
                output.append(Self.hexDigits[Int(byte >> 4)])
                output.append(Self.hexDigits[Int(byte & 0x0F)])
            }
            runStart = index + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

}

/// A set of ASCII bytes, one bit per byte: a lookup with no array and no bounds check.
package struct ASCIIByteSet: Sendable, Hashable {
    /// Bytes 0–63.
    private var low: UInt64 = 0
    /// Bytes 64–127.
    private var high: UInt64 = 0

    /// The set of the ASCII bytes among `bytes` (others are ignored).
    init(_ bytes: some Sequence<UInt8>) {
        for byte in bytes where byte < 128 {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
    }

    /// Whether every byte of `other` is in the set.
    func isSuperset(of other: ASCIIByteSet) -> Bool {
        low & other.low == other.low && high & other.high == other.high
    }

    /// Whether `byte` is in the set (never for a byte outside ASCII).
    func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return low >> UInt64(byte) & 1 == 1 }
        return byte < 128 && high >> UInt64(byte - 64) & 1 == 1
    }
}

extension CharacterSet {
    /// The characters left unescaped in URL-encoded form keys and values (RFC 3986).
    ///
    /// It is `CharacterSet.urlQueryAllowed` without the general delimiters `:#[]@` and
    /// the sub-delimiters `!$&'()*+,;=`. As RFC 3986 section 3.4 allows, `?` and `/`
    /// stay unescaped so that a query value can hold a URL. This matches Alamofire's
    /// `afURLQueryAllowed`.
    public static let strataURLQueryAllowed: CharacterSet = {
        let generalDelimiters = ":#[]@"
        let subDelimiters = "!$&'()*+,;="
        return CharacterSet.urlQueryAllowed
            .subtracting(CharacterSet(charactersIn: generalDelimiters + subDelimiters))
    }()
}
