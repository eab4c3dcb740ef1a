import Foundation

/// Percent-escapes the keys and values of URL-encoded form data (RFC 3986).
///
/// ASCII characters in the allowed set are kept; every other character is written as
/// the percent-escaped bytes of its UTF-8 encoding, with uppercase hex digits
/// (`é` → `%C3%A9`). Non-ASCII characters are always escaped, even when the set
/// contains them, so the output is plain ASCII. A space is written as the
/// ``URLEncodedFormEncoder/SpaceEncoding`` says, whatever the set.
struct URLQueryEscaper: Sendable {
    /// Whether each ASCII byte (the index) is left unescaped.
    private let allowedASCII: [Bool]
    /// The bytes written for a space.
    private let spaceReplacement: [UInt8]

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
    private static let space = UInt8(ascii: " ")
    private static let percent = UInt8(ascii: "%")

    /// An escaper keeping the ASCII bytes `allowedASCII` marks (see ``allowedASCII(in:)``).
    init(allowedASCII: [Bool], spaceEncoding: URLEncodedFormEncoder.SpaceEncoding) {
        self.allowedASCII = allowedASCII
        spaceReplacement = spaceEncoding.replacement
    }

    /// Whether each ASCII byte (the index) is in `set`.
    static func allowedASCII(in set: CharacterSet) -> [Bool] {
        (0..<128).map { byte in set.contains(Unicode.Scalar(UInt8(byte))) }
    }

    /// ``allowedASCII(in:)`` of `CharacterSet.strataURLQueryAllowed`, worked out once.
    static let defaultAllowedASCII = allowedASCII(in: .strataURLQueryAllowed)

    /// `text` with every character that is not allowed percent-escaped.
    func escape(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte == Self.space {
                output.append(contentsOf: spaceReplacement)
            } else if byte < 0x80 && allowedASCII[Int(byte)] {
                output.append(byte)
            } else {
                output.append(Self.percent)
                output.append(Self.hexDigits[Int(byte >> 4)])
                output.append(Self.hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
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
