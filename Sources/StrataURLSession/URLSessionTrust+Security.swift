// The calls into Apple's Security framework that carry out URLSessionTrust's decisions, and
// nothing else: every decision is in URLSessionTrust.swift, unit-tested on Linux.
// scripts/check-darwin.sh type-checks this file on Linux against a stand-in of Security.
#if canImport(Security) && canImport(CryptoKit) && !canImport(FoundationNetworking)
    import CryptoKit
    import Foundation
    import Security
    import Strata

    extension TrustPlatform {
        /// Security's: certificates read by `SecCertificateCreateWithData`, PKCS #12 archives
        /// imported by `SecPKCS12Import`.
        static let security = TrustPlatform(
            answersChallenges: true,
            readsCertificate: { SecCertificateCreateWithData(nil, $0.der as CFData) != nil },
            importIdentity: { archive, passphrase in
                guard let (identity, chain) = importPKCS12(archive, passphrase: passphrase) else { return nil }
                return URLCredential(
                    identity: identity, certificates: URLSessionTrust.intermediates(ofImportedChain: chain),
                    persistence: .forSession)
            })

        /// The identity and chain (leaf first) of an archive, imported in memory where the
        /// system allows it (`kSecImportToMemoryOnly`: nothing is added to a keychain).
        private static func importPKCS12(_ archive: Data, passphrase: String) -> (SecIdentity, [SecCertificate])? {
            var options: [String: Any] = [kSecImportExportPassphrase as String: passphrase]
            if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                options[kSecImportToMemoryOnly as String] = true
            }
            var items: CFArray?
            guard SecPKCS12Import(archive as CFData, options as CFDictionary, &items) == errSecSuccess,
                let first = (items as? [[String: Any]])?.first,
                let identity = first[kSecImportItemIdentity as String] as CFTypeRef?,
                CFGetTypeID(identity) == SecIdentityGetTypeID()
            else { return nil }
            let chain = (first[kSecImportItemCertChain as String] as? [SecCertificate]) ?? []
            // A CoreFoundation type cannot be cast conditionally (`as?` always succeeds);
            // the type ID checked above makes this cast safe.
            return ((identity as! SecIdentity), chain)
        }
    }

    /// A server-trust challenge's `SecTrust`, as ``URLSessionTrust`` evaluates it.
    struct SecTrustEvaluation: ServerTrustEvaluation {
        let trust: SecTrust

        func setAnchors(_ roots: [TLSCertificate], only: Bool) {
            // Every root was read when the transport was made (URLSessionTrust.check).
            let anchors = roots.compactMap { SecCertificateCreateWithData(nil, $0.der as CFData) }
            SecTrustSetAnchorCertificates(trust, anchors as CFArray)
            SecTrustSetAnchorCertificatesOnly(trust, only)
        }

        func verify() -> Int32? {
            var error: CFError?
            guard !SecTrustEvaluateWithError(trust, &error) else { return nil }
            return Int32(truncatingIfNeeded: error.map { CFErrorGetCode($0) } ?? 0)
        }

        func certificateChain() -> [Data] {
            let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
            return chain.map { SecCertificateCopyData($0) as Data }
        }
    }

    extension URLSessionTrust {
        /// The SHA-256 of a public key, for its pin.
        static let sha256: @Sendable (Data) -> Data = { Data(SHA256.hash(data: $0)) }
    }
#endif
