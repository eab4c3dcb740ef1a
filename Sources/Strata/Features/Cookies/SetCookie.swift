import Foundation

/// One `Set-Cookie` field value, parsed as RFC 6265bis §5.6 says, before the storage model
/// decides what the jar keeps (``CookieStorage``).
///
/// The parser never fails loudly: a field the RFC says to ignore (control characters, an
/// empty name and value, a name and value over 4,096 bytes) gives `nil`, and an attribute
/// it cannot read (an `Expires` that is no date, a `Max-Age` that is no number, a value
/// over 1,024 bytes) is skipped.
struct SetCookie: Equatable {
    /// The most bytes of a name and value together (§5.6, step 5).
    static let maxNameValueBytes = 4096
    /// The most bytes of one attribute's value (§5.6.1).
    static let maxAttributeValueBytes = 1024

    var name: String
    var value: String
    /// `Expires`, when it is a date.
    var expires: Date?
    /// `Max-Age` in seconds, when it is a number (which wins over `Expires`).
    var maxAge: Int?
    /// `Domain`, without a leading dot, lowercased; `nil` when absent or empty.
    var domain: String?
    /// `Path` when it starts with `/`; `nil` otherwise (the default path then applies).
    var path: String?
    var isSecure = false
    var isHTTPOnly = false
    var sameSite: Cookie.SameSite = .unspecified

    /// Parses `field`; `nil` when the RFC says to ignore it. It works on the field's
    /// bytes, as the RFC does: `;`, `=`, spaces and tabs are ASCII, whatever follows them.
    init?(_ field: String) {
        let bytes = Array(field.utf8)
        // Control characters other than HTAB: ignore the whole field.
        guard !bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return nil }
        let parts = bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        let pair = Self.split(parts[0])
        (name, value) = pair.value.map { (pair.key, $0) } ?? ("", pair.key)
        guard !(name.isEmpty && value.isEmpty), name.utf8.count + value.utf8.count <= Self.maxNameValueBytes else {
            return nil
        }
        for attribute in parts.dropFirst() {
            let (key, attributeValue) = Self.split(attribute)
            let value = attributeValue ?? ""
            guard value.utf8.count <= Self.maxAttributeValueBytes else { continue }
            apply(key.lowercased(), value)
        }
    }

    /// What comes before the first `=` and what after it (`nil` without one), trimmed.
    private static func split(_ bytes: ArraySlice<UInt8>) -> (key: String, value: String?) {
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { return (bytes.trimmingSpacesAndTabs, nil) }
        return (bytes[..<equals].trimmingSpacesAndTabs, bytes[(equals + 1)...].trimmingSpacesAndTabs)
    }

    /// Reads one attribute; the last of each kind wins.
    private mutating func apply(_ key: String, _ value: String) {
        switch key {
        case "expires":
            if let date = CookieDate.parse(value) { expires = date }
        case "max-age":
            let digits = value.first == "-" ? value.dropFirst() : Substring(value)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return }
            // A number too large for Int is as good as "forever": the 400-day cap applies.
            maxAge = Int(value) ?? (value.first == "-" ? Int.min : Int.max)
        case "domain":
            let domain = value.hasPrefix(".") ? String(value.dropFirst()) : value
            guard !domain.isEmpty else { return }  // an empty Domain is ignored
            self.domain = domain.lowercased()
        case "path":
            path = value.hasPrefix("/") ? value : nil
        case "secure":
            isSecure = true
        case "httponly":
            isHTTPOnly = true
        case "samesite":
            sameSite =
                switch value.lowercased() {
                case "strict": .strict
                case "lax": .lax
                case "none": .none
                default: .unspecified
                }
        default:
            break  // an attribute the RFC does not define is ignored
        }
    }
}
