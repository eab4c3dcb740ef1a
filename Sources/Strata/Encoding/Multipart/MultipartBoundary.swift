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
            let shown = bad.properties.isWhitespace || bad.value < 0x20
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
