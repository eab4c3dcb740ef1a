import Foundation

/// The certificate chain and private key a client presents when a server asks for one
/// (mutual TLS).
///
/// Its description never shows the key or the passphrase.
public struct ClientIdentity: Sendable, Hashable, CustomStringConvertible {
    /// Where the identity comes from.
    public enum Source: Sendable, Hashable {
        /// A chain (the client's certificate first) and its private key in PEM
        /// (`-----BEGIN PRIVATE KEY-----`, `EC PRIVATE KEY` or `RSA PRIVATE KEY`).
        case pem(certificateChain: [TLSCertificate], privateKey: String)
        /// A PKCS #12 archive (`.p12`, `.pfx`) and its passphrase: what Apple platforms
        /// import as a `SecIdentity`.
        case pkcs12(Data, passphrase: String)
    }

    /// Where the identity comes from.
    public let source: Source

    /// An identity from a PEM chain (the client's certificate first) and a PEM private key.
    /// - Throws: ``TrustConfigurationError`` with setting
    ///   ``TrustConfigurationError/Setting/clientIdentity`` when the chain holds no certificate
    ///   or the key is not a PEM private key.
    public static func pem(certificateChain: String, privateKey: String) throws(TrustConfigurationError)
        -> ClientIdentity
    {
        let chain: [TLSCertificate]
        do {
            chain = try TLSCertificate.certificates(pem: certificateChain)
        } catch {
            throw TrustConfigurationError(.clientIdentity, reason: "the certificate chain: \(error.reason)")
        }
        guard privateKey.contains("-----BEGIN "), privateKey.contains("PRIVATE KEY-----") else {
            throw TrustConfigurationError(.clientIdentity, reason: "the private key is not a PEM private key")
        }
        return ClientIdentity(source: .pem(certificateChain: chain, privateKey: privateKey))
    }

    /// An identity from a PKCS #12 archive and its passphrase.
    public static func pkcs12(_ archive: Data, passphrase: String) -> ClientIdentity {
        ClientIdentity(source: .pkcs12(archive, passphrase: passphrase))
    }

    /// What kind of identity this is, without its secrets.
    public var description: String {
        switch source {
        case .pem(let chain, _): "ClientIdentity(PEM, \(chain.count) certificate(s), private key redacted)"
        case .pkcs12(let archive, _): "ClientIdentity(PKCS #12, \(archive.count) bytes, passphrase redacted)"
        }
    }
}
