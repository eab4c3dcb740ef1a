// HTTP's optional whitespace (RFC 9110, section 5.6.3: spaces and tabs) around a field's
// parts, trimmed from text and from bytes.

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (RFC 9110's OWS).
    package func trimmingOWS() -> String {
        let isOWS: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isOWS($0) }), let last = lastIndex(where: { !isOWS($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

extension ArraySlice<UInt8> {
    /// The bytes without leading and trailing spaces and tabs (HTTP's optional whitespace),
    /// as text.
    package var trimmingSpacesAndTabs: String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: self[first...last], as: UTF8.self)
    }
}
