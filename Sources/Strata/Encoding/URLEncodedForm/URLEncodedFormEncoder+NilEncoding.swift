extension URLEncodedFormEncoder {
    /// How `nil` optionals and JSON `null` values are written.
    public enum NilEncoding: Sendable, Hashable {
        /// The pair is left out entirely (and a `null` array element takes no index). The default.
        case dropKey
        /// The key is written with an empty value: `key=`.
        case dropValue
        /// The key is written with the text `null`: `key=null`.
        case null

        /// The text written for a `null` value, or `nil` when the pair is left out.
        var text: String? {
            switch self {
            case .dropKey: nil
            case .dropValue: ""
            case .null: "null"
            }
        }
    }
}
