/// A failure below HTTP: the request never got a complete response.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was, as far as the transport can tell.
    ///
    /// A struct with static members rather than an enum, so that new kinds can be added
    /// without breaking code that matches on them: compare with `==`, or use the
    /// members as patterns in a `switch` with a `default` branch.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// A short name for logs, for example `connection refused`.
        public let description: String

        private init(_ description: String) {
            self.description = description
        }

        /// Nothing listened at the address (`ECONNREFUSED`).
        public static let connectionRefused = Kind("connection refused")
        /// The deadline passed before the response was complete.
        public static let timedOut = Kind("timed out")
        /// The connection closed before the response was complete.
        public static let connectionLost = Kind("connection lost")
        /// The host name could not be resolved.
        public static let hostNotFound = Kind("host not found")
        /// The TLS handshake or certificate validation failed.
        public static let tls = Kind("TLS failure")
        /// The request could not be sent as described (for example a URL the transport rejects).
        public static let invalidRequest = Kind("invalid request")
        /// Anything else; see ``TransportError/underlying``.
        public static let other = Kind("transport failure")
    }

    /// The kind of failure.
    public let kind: Kind
    /// The transport's own error, when there is one.
    public let underlying: (any Error)?

    /// Creates a transport error.
    public init(_ kind: Kind, underlying: (any Error)? = nil) {
        self.kind = kind
        self.underlying = underlying
    }

    /// A one-line description for logs, with the underlying error when there is one.
    public var description: String {
        guard let underlying else { return kind.description }
        return "\(kind): \(String(describing: underlying))"
    }
}
