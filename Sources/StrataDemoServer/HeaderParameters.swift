/// Reads the `; key=value` parameters of a header value such as
/// `form-data; name="avatar"; filename="a;b.png"`: keys lowercased, quoted values
/// unquoted (with `\"` escapes), semicolons inside quotes kept.
enum HeaderParameters {
    static func parse(_ value: String) -> [String: String] {
        var result: [String: String] = [:]
        for segment in split(value).dropFirst() {
            guard let equals = segment.firstIndex(of: "=") else { continue }
            let key = segment[..<equals].trimmingWhitespace().lowercased()
            var raw = segment[segment.index(after: equals)...].trimmingWhitespace()
            if raw.count >= 2, raw.first == "\"", raw.last == "\"" {
                raw = raw.dropFirst().dropLast()
                result[key] = unescape(raw)
            } else {
                result[key] = String(raw)
            }
        }
        return result
    }

    /// Splits at semicolons outside double quotes.
    private static func split(_ value: String) -> [Substring] {
        var segments: [Substring] = []
        var start = value.startIndex
        var inQuotes = false
        var escaped = false
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            if escaped {
                escaped = false
            } else if character == "\\" && inQuotes {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
            } else if character == ";" && !inQuotes {
                segments.append(value[start..<index])
                start = value.index(after: index)
            }
            index = value.index(after: index)
        }
        segments.append(value[start...])
        return segments
    }

    private static func unescape(_ quoted: Substring) -> String {
        var result = ""
        var escaped = false
        for character in quoted {
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
