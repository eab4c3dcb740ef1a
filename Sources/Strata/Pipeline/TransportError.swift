/// A failure below HTTP: the request never got a complete response.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was, as far as the transport can tell.
    public enum Kind: Sendable, Equatable, CustomStringConvertible {
        /// Nothing listened at the address (`ECONNREFUSED`).
        case connectionRefused
        /// The deadline passed before the response was complete.
        case timedOut
        /// The connection closed before the response was complete.
        case connectionLost
        /// The host name could not be resolved.
        case hostNotFound
        /// The TLS handshake or certificate validation failed.
        case tls
        /// The request could not be sent as described (for example a URL the transport rejects).
        case invalidRequest
        /// Anything else; see ``TransportError/underlying``.
        case other

        /// A short name for logs.
        public var description: String {
            switch self {
            case .connectionRefused: "connection refused"
            case .timedOut: "timed out"
            case .connectionLost: "connection lost"
            case .hostNotFound: "host not found"
            case .tls: "TLS failure"
            case .invalidRequest: "invalid request"
            case .other: "transport failure"
            }
        }
    }

    /// The kind of failure.
    public let kind: Kind
    /// The transport's own error, when there is one.
    public let underlying: (any Error & Sendable)?

    /// Creates a transport error.
    public init(_ kind: Kind, underlying: (any Error & Sendable)? = nil) {
        self.kind = kind
        self.underlying = underlying
    }

    /// A one-line description for logs, with the underlying error when there is one.
    public var description: String {
        guard let underlying else { return kind.description }
        return "\(kind): \(String(describing: underlying))"
    }
}
