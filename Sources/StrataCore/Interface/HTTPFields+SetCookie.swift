import HTTPTypes

extension HTTPFields {
    /// The `Set-Cookie` fields of a value in which a transport joined several with commas,
    /// as `HTTPURLResponse` does (on Apple platforms and Linux alike), which `Set-Cookie`'s
    /// syntax does not allow (RFC 9110 §5.3): one value per cookie again.
    ///
    /// A comma separates two fields when what follows it, up to the next `;` or `,`, holds
    /// an `=` (the next cookie's `name=value`); the comma of an `Expires` date
    /// (`Wed, 09 Jun 2021 10:18:14 GMT`) is followed by none, and stays.
    package static func splitJoinedSetCookie(_ value: String) -> [String] {
        let bytes = Array(value.utf8)
        guard bytes.contains(UInt8(ascii: ",")) else { return value.isEmpty ? [] : [value] }
        var fields: [String] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: ",") {
            let next = bytes[(index + 1)...].prefix { $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ",") }
            guard next.contains(UInt8(ascii: "=")) else { continue }
            fields.append(bytes[start..<index].trimmingSpacesAndTabs)
            start = index + 1
        }
        fields.append(bytes[start...].trimmingSpacesAndTabs)
        return fields.filter { !$0.isEmpty }
    }
}
