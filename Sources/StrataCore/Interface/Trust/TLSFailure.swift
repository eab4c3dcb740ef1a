/// Why a TLS connection was refused, as far as the transport tells: the reason of a
/// ``TransportError`` of kind ``TransportError/Kind/tls``.
public struct TLSFailure: Sendable, Hashable, CustomStringConvertible {
    /// Why the connection was refused.
    ///
    /// A struct with static members, so that reasons can be added: compare with `==`.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        /// A short phrase, for example `certificate expired`.
        public let description: String

        private init(_ description: String) { self.description = description }

        /// The server's chain did not verify: it does not lead to a trusted root
        /// (self-signed, another CA) — or, on a transport that does not tell the causes
        /// apart, a certificate of it has expired (AsyncHTTPClient: BoringSSL reports
        /// `CERTIFICATE_VERIFY_FAILED` for both).
        public static let untrustedCertificate = Reason("untrusted certificate")
        /// A certificate of the chain has expired (or is not valid yet), on a transport
        /// that tells this apart from ``untrustedCertificate``.
        public static let expired = Reason("certificate expired")
        /// The certificate does not name the host.
        public static let hostNameMismatch = Reason("host name mismatch")
        /// The verified chain shows none of the pinned public keys.
        public static let pinMismatch = Reason("public key pin mismatch")
        /// The server wanted a client certificate, and none (or one it refused) was presented.
        public static let clientCertificateRequired = Reason("client certificate required")
        /// Client and server share no protocol version (for example a TLS 1.3 minimum
        /// against a TLS 1.2 server).
        public static let protocolVersion = Reason("no common protocol version")
        /// The handshake failed for another reason; see the error's `underlying`.
        public static let handshakeFailed = Reason("handshake failed")
    }

    /// Why the connection was refused.
    public let reason: Reason
    /// For ``Reason/pinMismatch``: the pins of the keys the server's chain showed, leaf
    /// first, so that a wrong pin can be fixed from the message.
    public let presentedPins: [PublicKeyPin]

    /// Creates a failure.
    /// - Parameters:
    ///   - reason: why the connection was refused.
    ///   - presentedPins: the pins of the keys the server showed, leaf first.
    public init(_ reason: Reason, presentedPins: [PublicKeyPin] = []) {
        self.reason = reason
        self.presentedPins = presentedPins
    }

    /// The reason, and the presented pins when there are any.
    public var description: String {
        guard !presentedPins.isEmpty else { return reason.description }
        return "\(reason); the server presented \(presentedPins.map(\.description).joined(separator: ", "))"
    }
}

extension TLSFailure.Reason {
    /// The reason an `OSStatus` of Apple's Security framework stands for: a trust
    /// evaluation's (`SecBase.h`) or a TLS handshake's (`SecureTransport.h`, as
    /// Network.framework reports them), or `otherwise` for a status not listed.
    ///
    /// Plain numbers, so that the rule is the same, and tested, on every platform.
    package init(securityStatus status: Int32, otherwise: TLSFailure.Reason) {
        switch status {
        // errSecCertificateExpired, errSecCertificateNotValidYet, errSSLCertExpired, errSSLCertNotYetValid
        case -67818, -67819, -9814, -9815: self = .expired
        // errSecHostNameMismatch, errSSLHostNameMismatch
        case -67602, -9843: self = .hostNameMismatch
        // errSSLPeerProtocolVersion
        case -9836: self = .protocolVersion
        // errSSLClientCertRequested
        case -9842: self = .clientCertificateRequired
        // errSSLXCertChainInvalid, errSSLBadCert, errSSLUnknownRootCert, errSSLNoRootCert
        case -9807, -9808, -9812, -9813: self = .untrustedCertificate
        default: self = otherwise
        }
    }
}
