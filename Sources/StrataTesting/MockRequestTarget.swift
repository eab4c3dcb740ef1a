import Foundation

/// The `:path` pseudo-field of a request split into its path and query.
struct MockRequestTarget: Sendable {
    /// The path, percent-encoded as it was sent, without the query.
    let path: String
    /// The query's name–value pairs, decoded, in order.
    let queryItems: [(name: String, value: String)]

    /// Splits `target` (`/search?q=a%20b`) at its first `?`; `nil` is the empty path.
    init(_ target: String?) {
        let target = target ?? ""
        guard let mark = target.firstIndex(of: "?") else {
            self.path = target
            self.queryItems = []
            return
        }
        self.path = String(target[..<mark])
        self.queryItems = Self.parseQuery(target[target.index(after: mark)...])
    }

    /// Reads `a=1&b=two%20words`: pairs split at the first `=`, `+` read as a space,
    /// percent escapes decoded. A name with no `=` has the empty value.
    static func parseQuery(_ query: Substring) -> [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            guard let equals = pair.firstIndex(of: "=") else {
                return (decode(pair), "")
            }
            return (decode(pair[..<equals]), decode(pair[pair.index(after: equals)...]))
        }
    }

    /// `text` with `+` as a space and percent escapes decoded; as it is when malformed.
    static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// Whether every name–value pair of `required` occurs in the query.
    func contains(_ required: [String: String]) -> Bool {
        required.allSatisfy { name, value in
            queryItems.contains { $0.name == name && $0.value == value }
        }
    }
}
