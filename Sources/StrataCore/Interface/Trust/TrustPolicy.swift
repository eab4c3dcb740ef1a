/// Whom a client trusts for one host (or for every host without a policy of its own):
/// the roots a server's chain must lead to, the public keys it must show, the identity the
/// client presents, and the lowest TLS version it accepts.
///
/// A value in Strata's contracts, with no TLS library behind it: each transport applies it
/// or, where it cannot honour a setting, refuses it with a ``TrustConfigurationError`` when
/// the transport is made — never ignores it. ``ServerTrust`` holds the policies of a client,
/// per host. See the "Trust and TLS" article for what each transport can apply.
///
/// ```swift
/// let policy = TrustPolicy(
///     roots: .only(try TLSCertificate.certificates(pem: companyCA)),
///     pins: [try PublicKeyPin("sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=")],
///     minimumVersion: .tls13)
/// ```
public struct TrustPolicy: Sendable, Hashable {
    /// The certificates a server's chain must lead to.
    public enum Roots: Sendable, Hashable {
        /// The system's trust store: the default.
        case system
        /// The system's trust store and these certificates (a private CA besides the public ones).
        case systemAnd([TLSCertificate])
        /// These certificates only: the system's store is not consulted (a private CA, a
        /// service mesh, a CA shipped with the app).
        case only([TLSCertificate])

        /// The certificates added to or replacing the system's store; empty for ``system``.
        public var certificates: [TLSCertificate] {
            switch self {
            case .system: []
            case .systemAnd(let certificates), .only(let certificates): certificates
            }
        }
    }

    /// The certificates a server's chain must lead to; ``Roots/system`` by default.
    public var roots: Roots
    /// The SHA-256 hashes of public keys (SubjectPublicKeyInfo) of which the server's
    /// verified chain must show at least one — the leaf's, an intermediate's or a root's —
    /// after the chain was verified against ``roots``. Empty: no pinning. Give a backup
    /// pin (a key not yet in use) so that a key can be rotated without an app release.
    public var pins: [PublicKeyPin]
    /// The certificate and key the client presents when the server asks (mutual TLS).
    public var clientIdentity: ClientIdentity?
    /// The lowest TLS version the client accepts; ``TLSProtocolVersion/tls12`` by default.
    public var minimumVersion: TLSProtocolVersion

    /// Creates a policy; every argument has the system's default.
    /// - Parameters:
    ///   - roots: the certificates a server's chain must lead to.
    ///   - pins: public-key hashes of which the verified chain must show one; empty for none.
    ///   - clientIdentity: the identity presented when the server asks for one.
    ///   - minimumVersion: the lowest TLS version accepted.
    public init(
        roots: Roots = .system,
        pins: [PublicKeyPin] = [],
        clientIdentity: ClientIdentity? = nil,
        minimumVersion: TLSProtocolVersion = .tls12
    ) {
        self.roots = roots
        self.pins = pins
        self.clientIdentity = clientIdentity
        self.minimumVersion = minimumVersion
    }

    /// The system's trust, no pins, no client identity, TLS 1.2 or later.
    public static let system = TrustPolicy()

    /// Whether this policy is the system's default (what a transport does without one).
    public var isSystemDefault: Bool { self == .system }

    /// The settings that differ from the system's default, in the order of the properties.
    package var changedSettings: [TrustConfigurationError.Setting] {
        var settings: [TrustConfigurationError.Setting] = []
        if roots != .system { settings.append(.roots) }
        if !pins.isEmpty { settings.append(.pins) }
        if clientIdentity != nil { settings.append(.clientIdentity) }
        if minimumVersion != .tls12 { settings.append(.minimumVersion) }
        return settings
    }
}

/// A TLS protocol version.
public enum TLSProtocolVersion: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// TLS 1.2 (RFC 5246).
    case tls12 = 12
    /// TLS 1.3 (RFC 8446).
    case tls13 = 13

    /// Orders versions from the oldest.
    public static func < (lhs: TLSProtocolVersion, rhs: TLSProtocolVersion) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `TLS 1.2` or `TLS 1.3`.
    public var description: String {
        switch self {
        case .tls12: "TLS 1.2"
        case .tls13: "TLS 1.3"
        }
    }
}
