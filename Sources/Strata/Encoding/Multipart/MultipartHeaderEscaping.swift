/// Escaping for values written into multipart part headers.
enum MultipartHeaderEscaping {
    /// Escapes a field name or file name for a quoted `Content-Disposition` parameter the
    /// way browsers do (WHATWG HTML, RFC 7578 §4.2): `"` becomes `%22`, CR `%0D` and LF
    /// `%0A`. Everything else, including non-ASCII text, is written as UTF-8.
    ///
    /// Works on Unicode scalars, because `"\r\n"` is a single `Character` in Swift.
    static func quotedParameter(_ value: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped.append(contentsOf: "%22".unicodeScalars)
            case "\r": escaped.append(contentsOf: "%0D".unicodeScalars)
            case "\n": escaped.append(contentsOf: "%0A".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return "\"" + String(escaped) + "\""
    }

    /// A header value with CR and LF removed, so a caller-supplied value such as a
    /// content type can never start a new header line.
    static func singleLine(_ value: String) -> String {
        String(String.UnicodeScalarView(value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
    }
}
