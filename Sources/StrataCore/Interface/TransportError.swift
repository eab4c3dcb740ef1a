/// A failure below HTTP: the request never got a complete response.
///
/// ## One classification on every transport
/// Strata's transports report the same condition the same way, so code that handles
/// errors does not depend on the transport (a ``Networker`` wraps these in a
/// ``StrataError`` whose ``StrataError/phase`` says whether the head had arrived):
///
/// | condition | kind |
/// |---|---|
/// | nothing listens at the address | ``Kind/connectionRefused`` |
/// | the host name does not resolve | ``Kind/hostNotFound`` |
/// | the deadline passed (before the head or while reading the body) | ``Kind/timedOut`` |
/// | the connection closed or reset before the response was complete (also a body shorter than its `Content-Length`) | ``Kind/connectionLost`` |
/// | a reply that is not HTTP, bad framing, invalid header bytes, a compressed body that does not decompress | ``Kind/malformedResponse`` |
/// | the TLS handshake or certificate check failed (the reason in ``tlsFailure``) | ``Kind/tls`` |
/// | the proxy refused the credentials (`407`), the tunnel or the SOCKS handshake | ``Kind/proxy`` |
/// | the request cannot be sent as described (no absolute URL, a header the transport rejects) | ``Kind/invalidRequest`` |
///
/// A body larger than the client's limit — declared by `Content-Length`, received, or
/// after decompression — is reported by the ``Networker`` as
/// ``StrataError/Kind/bodyTooLarge`` (from ``MessageBodyError/tooLarge(limit:)``); so is
/// a transport's own guard, such as a decompression ratio (``Kind/bodyTooLarge``).
/// ``description`` is one line on every transport; the transport's own error stays in
/// ``underlying``.
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
        /// The server's reply broke HTTP: bytes that are not an HTTP response, bad framing
        /// (`Content-Length` and body disagree, a broken chunked encoding), invalid header
        /// fields, or a compressed body that does not decompress. The server's fault,
        /// never the caller's.
        public static let malformedResponse = Kind("malformed response")
        /// The body broke a size limit the transport enforces on its own, such as a
        /// decompression ratio that guards against compression bombs. A ``Networker``
        /// reports it as ``StrataError/Kind/bodyTooLarge``.
        public static let bodyTooLarge = Kind("body too large")
        /// The proxy refused the request: it asked for credentials it was not given or did
        /// not accept (`407`), refused to open a tunnel to the origin, or failed its SOCKS
        /// handshake. The ``TransportError/detail`` names the proxy, never the origin's
        /// server, and never a password.
        public static let proxy = Kind("proxy failure")
        /// The request could not be sent as described (for example a URL the transport rejects).
        public static let invalidRequest = Kind("invalid request")
        /// Anything else; see ``TransportError/underlying``.
        public static let other = Kind("transport failure")
    }

    /// The kind of failure.
    public let kind: Kind
    /// The transport's own error, when there is one.
    public let underlying: (any Error)?
    /// A short, readable account of what happened, when the transport gives one; the
    /// ``description`` uses it instead of the underlying error's own text (which, for
    /// some platform errors, is a multi-line dump).
    public let detail: String?
    /// Why a TLS connection was refused, for kind ``Kind/tls`` when the transport tells.
    public let tlsFailure: TLSFailure?

    /// Creates a transport error.
    /// - Parameters:
    ///   - kind: what kind of failure it was.
    ///   - underlying: the transport's own error.
    ///   - detail: a short account for logs; by default the underlying error's description.
    public init(_ kind: Kind, underlying: (any Error)? = nil, detail: String? = nil) {
        self.kind = kind
        self.underlying = underlying
        self.detail = detail
        self.tlsFailure = nil
    }

    /// Creates an error of kind ``Kind/tls``.
    /// - Parameters:
    ///   - tlsFailure: why the connection was refused.
    ///   - underlying: the transport's own error.
    ///   - detail: a short account for logs; by default the failure's description.
    public init(tlsFailure: TLSFailure, underlying: (any Error)? = nil, detail: String? = nil) {
        self.kind = .tls
        self.underlying = underlying
        self.detail = detail ?? tlsFailure.description
        self.tlsFailure = tlsFailure
    }

    /// A one-line description for logs: the kind, then ``detail`` or the underlying
    /// error (its first line, at most 200 characters).
    public var description: String {
        guard let text = detail ?? underlying.map({ String(describing: $0) }) else { return kind.description }
        let line = text.prefix { !$0.isNewline }
        let short = line.count > 200 ? line.prefix(200) + "…" : line
        return "\(kind): \(short)"
    }
}
