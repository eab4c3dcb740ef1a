// The text rules of a multipart body: boundaries, escaped header values, media types.

/// Boundary rules from RFC 2046 §5.1.1, shared by validation and error descriptions.
enum MultipartBoundary {
    /// The longest boundary RFC 2046 allows.
    static let maximumLength = 70

    /// Why `boundary` is not a valid RFC 2046 boundary, or `nil` when it is valid.
    static func problem(with boundary: String) -> String? {
        let scalars = boundary.unicodeScalars
        if scalars.isEmpty {
            return "it must not be empty"
        }
        if scalars.count > maximumLength {
            return "it has \(scalars.count) characters, at most \(maximumLength) are allowed"
        }
        if let bad = scalars.first(where: { !isBoundaryCharacter($0) }) {
            let shown =
                bad.properties.isWhitespace || bad.value < 0x20
                ? "U+" + String(bad.value, radix: 16, uppercase: true)
                : "\"\(bad)\""
            return "character \(shown) is not allowed"
        }
        if scalars.last == " " {
            return "it must not end with a space"
        }
        return nil
    }

    /// Whether `scalar` is in RFC 2046's `bchars` set.
    static func isBoundaryCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "0"..."9", "a"..."z", "A"..."Z":
            return true
        case "'", "(", ")", "+", "_", ",", "-", ".", "/", ":", "=", "?", " ":
            return true
        default:
            return false
        }
    }

    /// Whether `boundary` must be quoted as a `Content-Type` parameter value, because it
    /// contains characters that are not allowed in an RFC 2045 `token`.
    static func needsQuoting(_ boundary: String) -> Bool {
        boundary.unicodeScalars.contains { "()<>@,;:\\\"/[]?= ".unicodeScalars.contains($0) }
    }

    /// A fresh random boundary: `strata.boundary.` followed by 16 hexadecimal digits.
    static func random() -> String {
        let value = UInt64.random(in: .min ... .max)
        let hex = String(value, radix: 16)
        return "strata.boundary." + String(repeating: "0", count: 16 - hex.count) + hex
    }
}

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

/// The small built-in table that picks a part's `Content-Type` from a file extension.
enum MultipartMediaTypes {
    /// The type used when nothing better is known.
    static let fallback = "application/octet-stream"

    private static let byExtension: [String: String] = [
        "json": "application/json",
        "txt": "text/plain",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "pdf": "application/pdf",
        "html": "text/html",
        "csv": "text/csv",
        "xml": "application/xml",
        "zip": "application/zip",
        "mp4": "video/mp4",
        "mp3": "audio/mpeg",
        "webp": "image/webp",
    ]

    /// The media type for a file name's extension (case-insensitive), or `nil` if the
    /// name has no extension or the extension is not in the table.
    static func type(forFileName fileName: String) -> String? {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
        let pathExtension = fileName[fileName.index(after: dot)...].lowercased()
        return byExtension[pathExtension]
    }
}
