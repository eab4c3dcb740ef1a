extension URLEncodedFormEncoder {
    /// How spaces in keys and values are written.
    public enum SpaceEncoding: Sendable, Hashable {
        /// Percent-escaped as `%20`, as RFC 3986 does. The default.
        case percentEscaped
        /// Replaced by `+`, as HTML forms do. A literal `+` is still escaped as `%2B`.
        case plusReplaced

        /// The bytes written for a space.
        var replacement: [UInt8] {
            switch self {
            case .percentEscaped: Array("%20".utf8)
            case .plusReplaced: Array("+".utf8)
            }
        }
    }
}
