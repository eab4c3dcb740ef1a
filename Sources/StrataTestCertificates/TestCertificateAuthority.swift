import Crypto
import Foundation
import NIOSSL
import Strata
import SwiftASN1
import X509

/// A certificate and its private key, made when the tests (or the demo) run: no private
/// key is ever committed.
public struct TestIdentity: Sendable {
    /// The certificate in PEM.
    public let certificatePEM: String
    /// The private key in PEM (PKCS #8).
    public let privateKeyPEM: String
    /// The pin of the certificate's public key: `sha256/` and the base64 of the SHA-256 of
    /// its DER SubjectPublicKeyInfo.
    public let pin: PublicKeyPin

    /// The certificate as Strata's value.
    public let certificate: TLSCertificate
    /// The identity for a client's `TrustPolicy`.
    public let clientIdentity: ClientIdentity

    init(certificate: Certificate, key: P256.Signing.PrivateKey) throws {
        self.certificatePEM = try certificate.serializeAsPEM().pemString
        self.privateKeyPEM = key.pemRepresentation
        self.certificate = try TLSCertificate(der: Data(certificate.serializeAsPEM().derBytes))
        self.clientIdentity = try ClientIdentity.pem(certificateChain: certificatePEM, privateKey: privateKeyPEM)
        var serializer = DER.Serializer()
        try serializer.serialize(certificate.publicKey)
        self.pin = try PublicKeyPin(sha256: Data(SHA256.hash(data: serializer.serializedBytes)))
    }
}

/// A certificate authority of its own, made on the spot, that issues server and client
/// certificates for tests and the demo.
public struct TestCertificateAuthority: Sendable {
    /// The CA's own (self-signed) certificate: the root to trust.
    public let root: TestIdentity
    private let key: P256.Signing.PrivateKey
    private let name: DistinguishedName

    /// Makes a CA named `commonName`, valid from an hour ago for a day.
    public init(commonName: String = "Strata Test CA") throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName(commonName) }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86_400, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(key))
        self.root = try TestIdentity(certificate: certificate, key: key)
        self.key = key
        self.name = name
    }

    /// What a certificate is for.
    public enum Usage: Sendable {
        /// A server's: names the hosts it serves.
        case server
        /// A client's, for mutual TLS.
        case client
    }

    /// Issues a certificate for `dnsNames` and `ipAddresses` (dotted IPv4), valid over
    /// `validity` (by default from an hour ago for a day).
    public func issue(
        dnsNames: [String] = ["localhost"],
        ipAddresses: [String] = ["127.0.0.1"],
        validity: ClosedRange<Date>? = nil,
        usage: Usage = .server
    ) throws -> TestIdentity {
        try Self.make(
            dnsNames: dnsNames, ipAddresses: ipAddresses, validity: validity, usage: usage,
            issuer: name, issuerKey: key)
    }

    /// A self-signed server certificate for `localhost` and `127.0.0.1`.
    public static func selfSigned() throws -> TestIdentity {
        try make(
            dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"], validity: nil, usage: .server, issuer: nil,
            issuerKey: nil)
    }

    private static func make(
        dnsNames: [String], ipAddresses: [String], validity: ClosedRange<Date>?, usage: Usage,
        issuer: DistinguishedName?, issuerKey: P256.Signing.PrivateKey?
    ) throws -> TestIdentity {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(dnsNames.first ?? ipAddresses.first ?? "client") }
        let now = Date()
        let validity = validity ?? (now - 3600)...(now + 86_400)
        var names: [GeneralName] = dnsNames.map { .dnsName($0) }
        names += ipAddresses.map { address in
            .ipAddress(
                ASN1OctetString(contentBytes: ArraySlice(address.split(separator: ".").compactMap { UInt8($0) })))
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: validity.lowerBound, notValidAfter: validity.upperBound,
            issuer: issuer ?? subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([usage == .server ? .serverAuth : .clientAuth])
                SubjectAlternativeNames(names)
            },
            issuerPrivateKey: .init(issuerKey ?? key))
        return try TestIdentity(certificate: certificate, key: key)
    }
}

extension TestIdentity {
    /// A server's TLS configuration presenting this identity (and `chain` after it).
    /// - Parameters:
    ///   - chain: intermediates to send after the certificate.
    ///   - clientAuthority: when given, the server requires a client certificate issued by it.
    ///   - maximumVersion: the newest TLS version the server speaks; the newest there is by default.
    public func serverTLSConfiguration(
        chain: [TestIdentity] = [],
        requiringClientCertificatesFrom clientAuthority: TestCertificateAuthority? = nil,
        maximumVersion: TLSProtocolVersion? = nil
    ) throws -> TLSConfiguration {
        let certificates = try ([self] + chain).map {
            NIOSSLCertificateSource.certificate(
                try NIOSSLCertificate(bytes: Array($0.certificatePEM.utf8), format: .pem))
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificates,
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)))
        if let clientAuthority {
            configuration.certificateVerification = .noHostnameVerification
            configuration.trustRoots = .certificates([
                try NIOSSLCertificate(bytes: Array(clientAuthority.root.certificatePEM.utf8), format: .pem)
            ])
        }
        if maximumVersion == .tls12 { configuration.maximumTLSVersion = .tlsv12 }
        return configuration
    }
}

extension PublicKeyPin {
    /// The pin of a DER SubjectPublicKeyInfo: its SHA-256.
    public init(subjectPublicKeyInfo: Data) throws {
        try self.init(sha256: Data(SHA256.hash(data: subjectPublicKeyInfo)))
    }
}
