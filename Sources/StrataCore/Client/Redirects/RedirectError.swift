/// Why a redirect was not followed; the ``StrataError/underlying`` of a
/// ``StrataError/Kind/redirect`` failure.
public struct RedirectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. A struct with static members so that kinds can be added without
    /// breaking a `switch` that has a `default` branch.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// A short name for logs.
        public let description: String

        private init(_ description: String) {
            self.description = description
        }

        /// More redirects than ``RedirectPolicy/maxRedirects``.
        public static let tooManyRedirects = Kind("too many redirects")
        /// A redirect back to a URL this call already requested with the same method.
        public static let loop = Kind("redirect loop")
        /// A redirect from `https` to `http`, refused by the policy.
        public static let insecureRedirect = Kind("redirect from https to http")
        /// A `Location` that is not an `http` or `https` URL.
        public static let invalidLocation = Kind("invalid redirect location")
        /// A `307`/`308` that would resend a body that can only be read once.
        public static let bodyNotReplayable = Kind("request body cannot be resent")
    }

    /// What went wrong.
    public let kind: Kind
    /// The redirect response's `Location` value, as the server sent it.
    public let location: String?
    /// How many redirects had been followed.
    public let redirects: Int

    /// Creates a redirect error.
    public init(_ kind: Kind, location: String?, redirects: Int) {
        self.kind = kind
        self.location = location
        self.redirects = redirects
    }

    /// `redirect loop (to /a after 2 redirects)`
    public var description: String {
        let target = location.map { "to \($0) " } ?? ""
        return "\(kind) (\(target)after \(redirects) redirect\(redirects == 1 ? "" : "s"))"
    }
}
