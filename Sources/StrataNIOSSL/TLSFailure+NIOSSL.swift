import NIOSSL
import Strata

extension TLSFailure {
    /// Why swift-nio-ssl refused a connection, and BoringSSL's short code when it gave one
    /// (`CERTIFICATE_VERIFY_FAILED`); `nil` for errors that are not swift-nio-ssl's. The
    /// AsyncHTTPClient transport and StrataGRPC both read their TLS errors here.
    ///
    /// BoringSSL gives one code for a chain that leads to no trusted root and for an
    /// expired certificate, so both are ``TLSFailure/Reason/untrustedCertificate``.
    package static func reading(_ error: any Error) -> (failure: TLSFailure, code: String?)? {
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return (TLSFailure(.hostNameMismatch), nil)
        }
        let errors: [BoringSSLInternalError]
        switch error {
        case NIOSSLError.handshakeFailed(.sslError(let list)), BoringSSLError.sslError(let list): errors = list
        case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError: return (TLSFailure(.handshakeFailed), nil)
        default: return nil
        }
        let codes = errors.map { error in
            let text = error.description
            let start = text.range(of: "OPENSSL_internal:")?.upperBound ?? text.startIndex
            return String(text[start...].prefix { $0 != " " })
        }
        let reason = boringSSLReasons.first { marker, _ in codes.contains { $0.contains(marker) } }?.1
        return (TLSFailure(reason ?? .handshakeFailed), codes.first)
    }

    /// BoringSSL's codes (or parts of them), observed against Strata's test servers.
    private static let boringSSLReasons: [(String, TLSFailure.Reason)] = [
        ("CERTIFICATE_VERIFY_FAILED", .untrustedCertificate),
        ("CERTIFICATE_REQUIRED", .clientCertificateRequired),
        ("PEER_DID_NOT_RETURN_A_CERTIFICATE", .clientCertificateRequired),
        ("PROTOCOL_VERSION", .protocolVersion),
        ("UNSUPPORTED_PROTOCOL", .protocolVersion),
    ]
}

extension TransportError {
    /// The error for a connection swift-nio-ssl refused: kind `.tls`, the reason, and
    /// BoringSSL's code in the detail; `nil` when `error` is not swift-nio-ssl's.
    package init?(readingTLSError error: any Error) {
        guard let (failure, code) = TLSFailure.reading(error) else { return nil }
        self.init(tlsFailure: failure, underlying: error, detail: code.map { "\(failure) (\($0))" })
    }
}

extension NIOSSLCertificate {
    /// The certificates as swift-nio-ssl reads them.
    /// - Throws: ``TrustConfigurationError`` with `setting` and `transport`, for a certificate
    ///   swift-nio-ssl cannot read.
    package static func reading(
        _ certificates: [TLSCertificate], for setting: TrustConfigurationError.Setting, transport: String
    ) throws(TrustConfigurationError) -> [NIOSSLCertificate] {
        do {
            return try certificates.map { try NIOSSLCertificate(bytes: Array($0.der), format: .der) }
        } catch {
            throw TrustConfigurationError(
                setting, transport: transport, reason: "swift-nio-ssl cannot read a certificate: \(error)")
        }
    }
}

extension ClientIdentity {
    /// The chain and key as swift-nio-ssl reads them (PEM, or a PKCS #12 archive).
    /// - Throws: ``TrustConfigurationError`` with setting `clientIdentity` and `transport`.
    package func nioSSL(transport: String) throws(TrustConfigurationError) -> (
        chain: [NIOSSLCertificate], key: NIOSSLPrivateKey
    ) {
        switch source {
        case .pem(let chain, let key):
            let certificates = try NIOSSLCertificate.reading(chain, for: .clientIdentity, transport: transport)
            do {
                return (certificates, try NIOSSLPrivateKey(bytes: Array(key.utf8), format: .pem))
            } catch {
                throw TrustConfigurationError(
                    .clientIdentity, transport: transport, reason: "swift-nio-ssl cannot read the private key: \(error)"
                )
            }
        case .pkcs12(let archive, let passphrase):
            do {
                let bundle = try NIOSSLPKCS12Bundle(buffer: Array(archive), passphrase: Array(passphrase.utf8))
                return (bundle.certificateChain, bundle.privateKey)
            } catch {
                throw TrustConfigurationError(
                    .clientIdentity, transport: transport,
                    reason: "swift-nio-ssl cannot read the PKCS #12 archive: \(error)")
            }
        }
    }
}
