/// A route could not produce a URL.
public enum URLRouteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The base URL was `nil`, typically because `URL(string:)` rejected it.
    case missingBaseURL(path: String)
    /// Joining the base and the path did not give a valid URL.
    case invalidURL(base: String, path: String)

    /// A one-line description for logs.
    public var description: String {
        switch self {
        case .missingBaseURL(let path):
            "cannot build the URL for \"\(path)\": the base URL is nil"
        case .invalidURL(let base, let path):
            "cannot build a valid URL from base \"\(base)\" and path \"\(path)\""
        }
    }
}
