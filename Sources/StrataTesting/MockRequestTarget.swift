import Foundation

/// The `:path` pseudo-field of a request split into its path and query.
struct MockRequestTarget: Sendable {
    /// The path, percent-encoded as it was sent, without the query.
    let path: String
    /// The query's name–value pairs, decoded, in order.
    let queryItems: [(name: String, value: String)]

    /// Splits `target` (`/search?q=a%20b`) at its first `?`; `nil` is the empty path.
    /// Delimiters are found as Unicode scalars, even when a combining mark follows them.
    init(_ target: String?) {
        let target = target ?? ""
        guard let mark = target.unicodeScalars.firstIndex(of: "?") else {
            self.path = target
            self.queryItems = []
            return
        }
        self.path = String(target[..<mark])
        self.queryItems = Self.parseQuery(target[target.unicodeScalars.index(after: mark)...])
    }

    /// Reads `a=1&b=two%20words`: pairs split at the first `=`, `+` read as a space,
    /// percent escapes decoded. A name with no `=` has the empty value.
    static func parseQuery(_ query: Substring) -> [(name: String, value: String)] {
        query.unicodeScalars.split(separator: "&", omittingEmptySubsequences: true).map { scalars in
            let pair = Substring(scalars)
            guard let equals = pair.unicodeScalars.firstIndex(of: "=") else {
                return (decode(pair), "")
            }
            return (decode(pair[..<equals]), decode(pair[pair.unicodeScalars.index(after: equals)...]))
        }
    }

    /// `text` with `+` as a space and valid percent escapes decoded; a `%` that starts
    /// no `%XX` escape is kept (see ``MockPercentDecoding``).
    static func decode(_ text: Substring) -> String {
        MockPercentDecoding.decode(text.replacingOccurrences(of: "+", with: " "))
    }

    /// Whether every name–value pair of `required` occurs in the query.
    func contains(_ required: [String: String]) -> Bool {
        required.allSatisfy { name, value in
            queryItems.contains { $0.name == name && $0.value == value }
        }
    }
}
