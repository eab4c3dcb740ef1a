import Foundation
import Strata

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `ServerTrust` as a session's delegate applies it: every decision, on every platform.
/// The calls into Apple's Security framework that carry the decisions out live in
/// `URLSessionTrust+Security.swift` (``TrustPlatform/security``, ``SecTrustEvaluation``);
/// the decisions are unit-tested on Linux with stand-ins of them.
///
/// - **Apple platforms**: the server-trust challenge of a host whose policy is not the
///   system's is answered here: the policy's roots become the trust's anchors (alone, or
///   with the system's), Security verifies the chain and the host name, then the pins are
///   compared with the SHA-256 of each certificate's public key. A refusal cancels the
///   challenge, and the call fails with the `TLSFailure` recorded here. A
///   client-certificate challenge is answered with the policy's identity, which must be
///   PKCS #12 there (a PEM key becomes a `SecIdentity` only through the keychain): each
///   archive is imported once, when the transport is made, in memory, and presented with
///   its intermediates. The minimum version is the session's
///   (`tlsMinimumSupportedProtocolVersion`), so every policy must name the same one.
/// - **Linux**: `FoundationNetworking` hands a delegate no TLS challenge and applies no
///   TLS setting of its configuration, so only the system's default trust is taken;
///   anything else is refused when the transport is made.
struct URLSessionTrust: Sendable {
    /// The transport's name in `TrustConfigurationError`.
    static let transportName = "URLSessionTransport"

    let trust: ServerTrust
    /// The credential of each policy with a client identity, by its host pattern (`nil`:
    /// the default policy), made once when the transport was made. Behind a lock only
    /// because `URLCredential` is not `Sendable` everywhere; it is never changed.
    private let credentials: Locked<[HostPattern?: URLCredential]>

    /// Checks that `platform` can apply `trust`, and imports its client identities.
    /// - Throws: `TrustConfigurationError` naming the first setting it cannot apply.
    init(_ trust: ServerTrust, platform: TrustPlatform = .current) throws(TrustConfigurationError) {
        var credentials: [HostPattern?: URLCredential] = [:]
        for entry in trust.entries {
            do throws(TrustConfigurationError) {
                try Self.check(entry.policy, in: trust, platform: platform)
                if case .pkcs12(let archive, let passphrase) = entry.policy.clientIdentity?.source {
                    guard let credential = platform.importIdentity(archive, passphrase) else {
                        throw TrustConfigurationError(
                            .clientIdentity, transport: Self.transportName,
                            reason: "the PKCS #12 archive does not open with this passphrase, or holds no identity")
                    }
                    credentials[entry.pattern] = credential
                }
            } catch {
                throw error.forHost(entry.pattern)
            }
        }
        self.trust = trust
        self.credentials = Locked(credentials)
    }

    /// The lowest TLS version every policy accepts, for the session's configuration.
    var minimumVersion: TLSProtocolVersion { trust.defaultPolicy.minimumVersion }

    private static func check(_ policy: TrustPolicy, in trust: ServerTrust, platform: TrustPlatform)
        throws(TrustConfigurationError)
    {
        guard platform.answersChallenges else {
            if let setting = policy.changedSettings.first {
                throw TrustConfigurationError(
                    setting, transport: transportName,
                    reason:
                        "FoundationNetworking on Linux hands a session no TLS challenge and applies no TLS setting; "
                        + "use AsyncHTTPClientTransport")
            }
            return
        }
        guard policy.minimumVersion == trust.defaultPolicy.minimumVersion else {
            throw TrustConfigurationError(
                .minimumVersion, transport: transportName,
                reason: "URLSession sets one minimum version per session: give every policy the same")
        }
        guard policy.roots.certificates.allSatisfy(platform.readsCertificate) else {
            throw TrustConfigurationError(
                .roots, transport: transportName, reason: "Security cannot read a certificate of the roots")
        }
        if case .pem = policy.clientIdentity?.source {
            throw TrustConfigurationError(
                .clientIdentity, transport: transportName,
                reason:
                    "Apple platforms take a client identity as PKCS #12 (a PEM key becomes a SecIdentity only through the keychain)"
            )
        }
    }

    /// What a server-trust challenge for `host` gets: default handling when the host's
    /// policy is the system's, else the policy's verdict on `evaluation`.
    /// - Parameters:
    ///   - evaluation: the platform's trust object for the challenge.
    ///   - host: the host of the challenge's protection space.
    ///   - sha256: the SHA-256 function that hashes a public key for its pin.
    func answer(_ evaluation: some ServerTrustEvaluation, host: String, sha256: (Data) -> Data) -> ServerTrustAnswer {
        let policy = trust.policy(forHost: host)
        guard policy.roots != .system || !policy.pins.isEmpty else { return .defaultHandling }
        switch policy.roots {
        case .system: break
        case .systemAnd(let roots): evaluation.setAnchors(roots, only: false)
        case .only(let roots): evaluation.setAnchors(roots, only: true)
        }
        if let status = evaluation.verify() {
            return .refused(TLSFailure(TLSFailure.Reason(securityStatus: status, otherwise: .untrustedCertificate)))
        }
        guard !policy.pins.isEmpty else { return .trusted }
        let presented = evaluation.certificateChain().compactMap { der -> PublicKeyPin? in
            guard let key = (try? TLSCertificate(der: der))?.subjectPublicKeyInfo else { return nil }
            return try? PublicKeyPin(sha256: sha256(key))
        }
        guard presented.contains(where: policy.pins.contains) else {
            return .refused(TLSFailure(.pinMismatch, presentedPins: presented))
        }
        return .trusted
    }

    /// The credential for a client-certificate challenge from `host`; `nil` when its
    /// policy has no identity.
    func clientCredential(forHost host: String) -> URLCredential? {
        let pattern = trust.entry(forHost: host).pattern
        return credentials.withLock { $0[pattern] }
    }

    /// The certificates presented with an identity: the chain of a PKCS #12 archive
    /// (leaf first, as Security imports it) without the identity's own certificate, which
    /// the identity carries.
    static func intermediates<Certificate>(ofImportedChain chain: [Certificate]) -> [Certificate] {
        Array(chain.dropFirst())
    }

}

/// What a platform's URLSession can do with a `ServerTrust`: Security's on Apple platforms
/// (``security``), nothing on Linux (``unsupported``), and stand-ins in tests.
struct TrustPlatform: Sendable {
    /// Whether sessions hand their delegate TLS challenges (server trust, client certificate).
    let answersChallenges: Bool
    /// Whether the platform can read `certificate` as an anchor.
    let readsCertificate: @Sendable (TLSCertificate) -> Bool
    /// The credential of a PKCS #12 archive and its passphrase, presenting its chain;
    /// `nil` when the archive does not open or holds no identity.
    let importIdentity: @Sendable (Data, String) -> URLCredential?

    /// FoundationNetworking's: no TLS challenge reaches a delegate.
    static let unsupported = TrustPlatform(
        answersChallenges: false, readsCertificate: { _ in false }, importIdentity: { _, _ in nil })

    /// The platform this code runs on.
    static var current: TrustPlatform {
        #if canImport(Security) && canImport(CryptoKit) && !canImport(FoundationNetworking)
            .security
        #else
            .unsupported
        #endif
    }
}

/// The platform's side of a server-trust challenge: Security's `SecTrust` on Apple
/// platforms (``SecTrustEvaluation``), a stand-in in tests.
protocol ServerTrustEvaluation {
    /// Makes `roots` the anchors of the evaluation: alone (`only`), or with the system's.
    func setAnchors(_ roots: [TLSCertificate], only: Bool)
    /// Verifies the chain and the host name: `nil` when trusted, else the failure's `OSStatus`.
    func verify() -> Int32?
    /// The chain the server presented, leaf first, each certificate in DER.
    func certificateChain() -> [Data]
}

/// What a server-trust challenge gets under a ``URLSessionTrust``.
enum ServerTrustAnswer: Equatable {
    /// The host's policy is the system's: the session decides as without a delegate.
    case defaultHandling
    /// The policy's roots and pins accept the server.
    case trusted
    /// The server is refused, and why.
    case refused(TLSFailure)
}
