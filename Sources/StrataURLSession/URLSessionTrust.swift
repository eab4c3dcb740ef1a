import Foundation
import Strata

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Security) && canImport(CryptoKit)
    import CryptoKit
    import Security
#endif

/// A `ServerTrust` as a session's delegate applies it.
///
/// - **Apple platforms**: the server-trust challenge of a host whose policy is not the
///   system's is answered here: the policy's roots become the trust's anchors (alone, or
///   with the system's), `SecTrustEvaluateWithError` verifies the chain and the host name,
///   then the pins are compared with the SHA-256 of each certificate's public key. A
///   refusal cancels the challenge, and the call fails with the `TLSFailure` recorded
///   here. A client-certificate challenge is answered with the policy's identity, which
///   must be PKCS #12 there (a PEM key becomes a `SecIdentity` only through the keychain).
///   The minimum version is the session's (`tlsMinimumSupportedProtocolVersion`), so every
///   policy must name the same one.
/// - **Linux**: `FoundationNetworking` hands a delegate no TLS challenge and applies no
///   TLS setting of its configuration, so only the system's default trust is taken;
///   anything else is refused when the transport is made.
struct URLSessionTrust: Sendable {
    /// The transport's name in `TrustConfigurationError`.
    static let transportName = "URLSessionTransport"

    let trust: ServerTrust

    /// Checks that the platform can apply `trust`.
    /// - Throws: `TrustConfigurationError` naming the first setting it cannot.
    init(_ trust: ServerTrust) throws(TrustConfigurationError) {
        for entry in trust.entries {
            do throws(TrustConfigurationError) {
                try Self.check(entry.policy, in: trust)
            } catch {
                throw error.forHost(entry.pattern)
            }
        }
        self.trust = trust
    }

    /// The lowest TLS version every policy accepts, for the session's configuration.
    var minimumVersion: TLSProtocolVersion { trust.defaultPolicy.minimumVersion }

    private static func check(_ policy: TrustPolicy, in trust: ServerTrust) throws(TrustConfigurationError) {
        #if canImport(Security) && canImport(CryptoKit) && !canImport(FoundationNetworking)
            guard policy.minimumVersion == trust.defaultPolicy.minimumVersion else {
                throw TrustConfigurationError(
                    .minimumVersion, transport: transportName,
                    reason: "URLSession sets one minimum version per session: give every policy the same")
            }
            for root in policy.roots.certificates where SecCertificateCreateWithData(nil, root.der as CFData) == nil {
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
            if case .pkcs12(let archive, let passphrase) = policy.clientIdentity?.source {
                guard Self.identity(archive, passphrase: passphrase) != nil else {
                    throw TrustConfigurationError(
                        .clientIdentity, transport: transportName,
                        reason: "the PKCS #12 archive does not open with this passphrase, or holds no identity")
                }
            }
        #else
            if let setting = policy.changedSettings.first {
                throw TrustConfigurationError(
                    setting, transport: transportName,
                    reason:
                        "FoundationNetworking on Linux hands a session no TLS challenge and applies no TLS setting; "
                        + "use AsyncHTTPClientTransport")
            }
        #endif
    }

    #if canImport(Security) && canImport(CryptoKit) && !canImport(FoundationNetworking)
        /// What to answer a server-trust challenge for `host`: `nil` for default handling
        /// (the host's policy is the system's), `.success` to accept, `.failure` to refuse.
        func evaluate(_ serverTrust: SecTrust, host: String) -> Result<Void, TLSFailure>? {
            let policy = trust.policy(forHost: host)
            guard policy.roots != .system || !policy.pins.isEmpty else { return nil }
            // Every root was read when the transport was made (see `check`).
            let anchors = policy.roots.certificates.compactMap { SecCertificateCreateWithData(nil, $0.der as CFData) }
            switch policy.roots {
            case .system: break
            case .systemAnd:
                SecTrustSetAnchorCertificates(serverTrust, anchors as CFArray)
                SecTrustSetAnchorCertificatesOnly(serverTrust, false)
            case .only:
                SecTrustSetAnchorCertificates(serverTrust, anchors as CFArray)  // these, and nothing else
            }
            var error: CFError?
            guard SecTrustEvaluateWithError(serverTrust, &error) else {
                return .failure(TLSFailure(Self.reason(ofTrustError: error.map { CFErrorGetCode($0) } ?? 0)))
            }
            guard !policy.pins.isEmpty else { return .success(()) }
            let chain = (SecTrustCopyCertificateChain(serverTrust) as? [SecCertificate]) ?? []
            let presented = chain.compactMap { certificate -> PublicKeyPin? in
                let der = SecCertificateCopyData(certificate) as Data
                guard let key = (try? TLSCertificate(der: der))?.subjectPublicKeyInfo else { return nil }
                return try? PublicKeyPin(sha256: Data(SHA256.hash(data: key)))
            }
            guard presented.contains(where: policy.pins.contains) else {
                return .failure(TLSFailure(.pinMismatch, presentedPins: presented))
            }
            return .success(())
        }

        /// The credential for a client-certificate challenge from `host`; `nil` when its
        /// policy has no identity.
        func clientCredential(forHost host: String) -> URLCredential? {
            guard case .pkcs12(let archive, let passphrase) = trust.policy(forHost: host).clientIdentity?.source,
                let identity = Self.identity(archive, passphrase: passphrase)
            else { return nil }
            return URLCredential(identity: identity, certificates: nil, persistence: .forSession)
        }

        private static func identity(_ archive: Data, passphrase: String) -> SecIdentity? {
            var items: CFArray?
            let options = [kSecImportExportPassphrase as String: passphrase] as CFDictionary
            guard SecPKCS12Import(archive as CFData, options, &items) == errSecSuccess,
                let first = (items as? [[String: Any]])?.first,
                let identity = first[kSecImportItemIdentity as String] as CFTypeRef?,
                CFGetTypeID(identity) == SecIdentityGetTypeID()
            else { return nil }
            // A CoreFoundation type cannot be cast conditionally (`as?` always succeeds);
            // the type ID checked above makes this cast safe.
            return (identity as! SecIdentity)
        }

        /// The reason of a `SecTrustEvaluateWithError` failure, by its `OSStatus` code.
        private static func reason(ofTrustError code: CFIndex) -> TLSFailure.Reason {
            switch OSStatus(code) {
            case errSecCertificateExpired, errSecCertificateNotValidYet: .expired
            case errSecHostNameMismatch: .hostNameMismatch
            default: .untrustedCertificate
            }
        }
    #endif
}
