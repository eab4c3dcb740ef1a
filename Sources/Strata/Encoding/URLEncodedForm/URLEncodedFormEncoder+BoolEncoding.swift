extension URLEncodedFormEncoder {
    /// How `true` and `false` are written.
    public enum BoolEncoding: Sendable, Hashable {
        /// `1` and `0`. The default.
        case numeric
        /// `true` and `false`.
        case literal

        /// The text written for `value`.
        func text(for value: Bool) -> String {
            switch self {
            case .numeric: value ? "1" : "0"
            case .literal: value ? "true" : "false"
            }
        }
    }
}
