import Strata

/// The percent-decoding used to compare stub paths and queries with requests, applied
/// the same way to both sides.
///
/// Unlike `removingPercentEncoding`, which gives up on a whole string for one lone `%`
/// and drops a leading U+FEFF, it decodes every valid `%XX` escape and keeps any other
/// `%` as it is, so `/files/100%` (a stub) and `/files/100%25` (the request a route
/// builds from the same text) both read `100%`.
enum MockPercentDecoding {
    /// `text` with every valid `%XX` escape decoded and any other `%` kept.
    ///
    /// When the decoded bytes are not UTF-8, they are written back with `%` and every
    /// non-ASCII byte escaped (`%FF%25`), a spelling that is the same for every input
    /// that decodes to those bytes.
    static func decode(_ text: some StringProtocol) -> String {
        let decoded = URLPercentEscaping.decodedBytes(text)
        if let string = String(validUTF8: decoded) {
            return string
        }
        var escaped: [UInt8] = []
        for byte in decoded {
            if byte == UInt8(ascii: "%") || byte >= 0x80 {
                URLPercentEscaping.appendEscape(of: byte, to: &escaped)
            } else {
                escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }
}
