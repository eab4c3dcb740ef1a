#if GRPC
    import Crypto
    import Foundation
    import GRPCNIOTransportHTTP2
    import NIOCore
    import NIOSSL
    import Strata
    import SwiftASN1
    import X509

    /// A `ServerTrust` applied to the TLS of grpc-swift-nio-transport's
    /// `HTTP2ClientTransport.Posix`, for the one host a transport connects to.
    ///
    /// - **Roots**: the system's, the given ones alone (the transport's own verification), or
    ///   both (verified here with swift-certificates: RFC 5280 and the host's name or address;
    ///   on Linux only, where swift-certificates reads the system's roots — elsewhere both,
    ///   and pins over the system's roots, are refused: give the roots with `.only`).
    /// - **Pins**: after that verification, at least one certificate of the verified chain
    ///   must have a pinned key; a mismatch is refused with the pins the chain showed.
    /// - **Client identity**: PEM (grpc-swift-nio-transport takes keys as PEM or DER bytes;
    ///   a PKCS #12 archive is refused: convert it with `openssl pkcs12 -nodes`).
    /// - **Minimum version**: TLS 1.2 only, which HTTP/2 requires anyway (RFC 9113 §9.2);
    ///   the transport has no setting for a higher floor, so TLS 1.3 is refused.
    ///
    /// ``GRPCNetworker/init(host:port:trust:transportConfig:interceptors:configuration:)``
    /// makes the transport with it; a refusal then fails the call with a `TransportError` of
    /// kind `.tls` whose `TLSFailure` says why.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCTrust: Sendable {
        /// The transport's name in `TrustConfigurationError`.
        static let transportName = "HTTP2ClientTransport.Posix"
        /// Whether swift-certificates reads the system's trust roots here: on Linux only.
        static var readsSystemRoots: Bool {
            #if os(Linux)
                true
            #else
                false
            #endif
        }

        /// The host the transport connects to, whose policy this is.
        public let host: String
        /// The policy of ``host`` in the trust it was made from.
        public let policy: TrustPolicy
        /// The transport security to make the transport with.
        public let transportSecurity: HTTP2ClientTransport.Posix.TransportSecurity
        /// The last refusal of the verification done here, for the call's error.
        let refusals: GRPCTrustRefusals

        /// Whether `host` is an IPv4 or IPv6 address rather than a name.
        static func isAddress(_ host: String) -> Bool {
            host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        }

        /// The TLS for `host` as `trust` says.
        /// - Throws: `TrustConfigurationError` naming the transport, for a minimum of
        ///   TLS 1.3 and a PKCS #12 identity (see the type's documentation).
        public init(_ trust: ServerTrust, host: String) throws(TrustConfigurationError) {
            let entry = trust.entry(forHost: host)
            let refusals = GRPCTrustRefusals()
            do throws(TrustConfigurationError) {
                self.transportSecurity = try Self.transportSecurity(entry.policy, host: host, refusals: refusals)
            } catch {
                throw error.forHost(entry.pattern)
            }
            self.host = host
            self.policy = entry.policy
            self.refusals = refusals
        }

        private static func transportSecurity(_ policy: TrustPolicy, host: String, refusals: GRPCTrustRefusals)
            throws(TrustConfigurationError) -> HTTP2ClientTransport.Posix.TransportSecurity
        {
            guard policy.minimumVersion == .tls12 else {
                throw TrustConfigurationError(
                    .minimumVersion, transport: transportName,
                    reason: "grpc-swift-nio-transport has no minimum-version setting (HTTP/2 needs TLS 1.2 or later)")
            }
            var tls = HTTP2ClientTransport.Posix.TransportSecurity.TLS.defaults()
            if case .only(let roots) = policy.roots {
                tls.trustRoots = .certificates(roots.map { .bytes(Array($0.der), format: .der) })
            }
            switch policy.clientIdentity?.source {
            case nil: break
            case .pem(let chain, let key):
                tls.certificateChain = chain.map { .bytes(Array($0.der), format: .der) }
                tls.privateKey = .bytes(Array(key.utf8), format: .pem)
            case .pkcs12:
                throw TrustConfigurationError(
                    .clientIdentity, transport: transportName,
                    reason:
                        "grpc-swift-nio-transport takes a key as PEM or DER bytes; convert the archive (openssl pkcs12 -nodes)"
                )
            }
            let verifier = ChainVerifier(policy, host: host, refusals: refusals)
            if verifier.includesSystemRoots && !verifier.roots.isEmpty || !policy.pins.isEmpty {
                if verifier.includesSystemRoots && !Self.readsSystemRoots {
                    throw TrustConfigurationError(
                        .roots, transport: transportName,
                        reason: "Strata verifies these chains with swift-certificates, which reads the system's "
                            + "roots on Linux only: give the roots to trust with .only(…)")
                }
                tls.customVerificationCallback = verifier.callback
            }
            return .tls(tls)
        }
    }

    /// The last server a ``GRPCTrust`` refused, and why.
    final class GRPCTrustRefusals: Sendable {
        private let last = Locked<TLSFailure?>(nil)

        func record(_ failure: TLSFailure) { last.withLock { $0 = failure } }

        var latest: TLSFailure? { last.withLock { $0 } }
    }

    /// Verifies a server's chain with swift-certificates, in place of BoringSSL's check
    /// (swift-nio-ssl's custom verification replaces it whole): the roots, RFC 5280 (dates,
    /// constraints), the host's name or address, then the pins.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    struct ChainVerifier: Sendable {
        let roots: [Certificate]
        let includesSystemRoots: Bool
        let pins: [PublicKeyPin]
        let host: String
        let refusals: GRPCTrustRefusals

        init(_ policy: TrustPolicy, host: String, refusals: GRPCTrustRefusals) {
            self.roots = policy.roots.certificates.compactMap { try? Certificate(derEncoded: Array($0.der)) }
            if case .only = policy.roots { self.includesSystemRoots = false } else { self.includesSystemRoots = true }
            self.pins = policy.pins
            self.host = host
            self.refusals = refusals
        }

        /// swift-nio-ssl's callback: the presented chain, leaf first.
        var callback: @Sendable ([NIOSSLCertificate], EventLoopPromise<NIOSSLVerificationResultWithMetadata>) -> Void {
            { certificates, promise in
                let presented = certificates.compactMap { try? $0.toDERBytes() }
                promise.completeWithTask { await verify(presented) }
            }
        }

        func verify(_ presented: [[UInt8]]) async -> NIOSSLVerificationResultWithMetadata {
            let chain = presented.compactMap { try? Certificate(derEncoded: $0) }
            guard let leaf = chain.first, chain.count == presented.count else {
                return refuse(TLSFailure(.untrustedCertificate))
            }
            var store = includesSystemRoots ? CertificateStore.systemTrustRoots : CertificateStore()
            store.append(contentsOf: roots)
            let isAddress = GRPCTrust.isAddress(host)
            var verifier = Verifier(rootCertificates: store) {
                RFC5280Policy()
                ServerIdentityPolicy(serverHostname: isAddress ? nil : host, serverIP: isAddress ? host : nil)
            }
            switch await verifier.validate(leaf: leaf, intermediates: CertificateStore(chain.dropFirst())) {
            case .validCertificate(let verified):
                guard !pins.isEmpty else { return .certificateVerified(VerificationMetadata(nil)) }
                let shown = verified.compactMap(Self.pin)
                guard shown.contains(where: pins.contains) else {
                    return refuse(TLSFailure(.pinMismatch, presentedPins: shown))
                }
                return .certificateVerified(VerificationMetadata(nil))
            case .couldNotValidate(let failures):
                let reasons = failures.map { String(describing: $0.policyFailureReason) }
                let reason: TLSFailure.Reason =
                    if reasons.contains(where: { $0.contains("has expired") || $0.contains("is not yet valid") }) {
                        .expired
                    } else if reasons.contains(where: { $0.contains("SAN extension") }) {
                        .hostNameMismatch
                    } else {
                        .untrustedCertificate
                    }
                return refuse(TLSFailure(reason))
            }
        }

        private func refuse(_ failure: TLSFailure) -> NIOSSLVerificationResultWithMetadata {
            refusals.record(failure)
            return .failed
        }

        /// The pin of a certificate's key: the SHA-256 of its DER SubjectPublicKeyInfo.
        private static func pin(_ certificate: Certificate) -> PublicKeyPin? {
            var serializer = DER.Serializer()
            guard (try? serializer.serialize(certificate.publicKey)) != nil else { return nil }
            return try? PublicKeyPin(sha256: Data(SHA256.hash(data: serializer.serializedBytes)))
        }
    }
#endif
