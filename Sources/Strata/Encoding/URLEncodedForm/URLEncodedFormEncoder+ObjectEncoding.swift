extension URLEncodedFormEncoder {
    /// How the keys of nested objects are joined to the key of their parent.
    public enum ObjectEncoding: Sendable, Hashable {
        /// The nested key in brackets: `user[name]=Ann`. The default.
        case brackets
        /// The nested key after a dot: `user.name=Ann`.
        case dots

        /// The key of the member `name` of the object stored under `parent`.
        func key(_ name: String, in parent: String) -> String {
            switch self {
            case .brackets: "\(parent)[\(name)]"
            case .dots: "\(parent).\(name)"
            }
        }
    }
}
