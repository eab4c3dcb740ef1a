import Foundation
import Testing

@testable import Strata
@testable import StrataCore

/// The trust values read what users write (pins, host patterns, PEM) exactly, and refuse
/// the rest with a typed error naming the setting.
@Suite struct TrustValueTests {
    static let hash = Data((0..<32).map { UInt8($0) })
    static let base64 = hash.base64EncodedString()

    @Test func pinsReadWithOrWithoutTheirPrefix() throws {
        #expect(try PublicKeyPin("sha256/" + Self.base64).sha256 == Self.hash)
        #expect(try PublicKeyPin(Self.base64) == PublicKeyPin(sha256: Self.hash))
        #expect(try PublicKeyPin(Self.base64).description == "sha256/AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
    }

    @Test func badPinsAreRefusedWithTheirReason() {
        #expect(throws: TrustConfigurationError(.pins, reason: "\"sha256/not base64!\" is not base64")) {
            try PublicKeyPin("sha256/not base64!")
        }
        #expect(throws: TrustConfigurationError(.pins, reason: "a SHA-256 hash has 32 bytes, this one 3")) {
            try PublicKeyPin("AAAA")
        }
        let error = TrustConfigurationError(.pins, reason: "a SHA-256 hash has 32 bytes, this one 3")
        #expect(error.description == "invalid pins: a SHA-256 hash has 32 bytes, this one 3")
    }

    @Test(arguments: [
        ("api.example.com", "api.example.com", true),
        ("api.example.com", "API.Example.COM.", true),
        ("api.example.com", "www.example.com", false),
        ("*.example.com", "api.example.com", true),
        ("*.example.com", "example.com", false),
        ("*.example.com", "a.b.example.com", false),
        ("*.example.com", "badexample.com", false),
        ("**.example.com", "example.com", true),
        ("**.example.com", "a.b.example.com", true),
        ("**.example.com", "badexample.com", false),
        ("127.0.0.1", "127.0.0.1", true),
        ("::1", "[::1]", true),
        ("[::1]", "::1", true),
    ])
    func hostPatternsMatch(pattern: String, host: String, matches: Bool) throws {
        #expect(try HostPattern(pattern).matches(host) == matches)
    }

    @Test(arguments: [
        "", "*", "*.", "a.*.com", "https://example.com", "example.com:443", "ex ample.com", "a..b", "é.com",
    ])
    func invalidHostPatternsAreRefused(pattern: String) {
        #expect(throws: TrustConfigurationError.self) { try HostPattern(pattern) }
        do {
            _ = try HostPattern(pattern)
        } catch {
            #expect(error.setting == .hostPattern)
            #expect(error.host == pattern)
        }
    }

    @Test func theMostSpecificPatternWins() throws {
        let exact = TrustPolicy(minimumVersion: .tls13)
        let one = TrustPolicy(pins: [try PublicKeyPin(sha256: Self.hash)])
        let any = TrustPolicy(roots: .only([]))
        let trust = try ServerTrust(hosts: ["**.example.com": any, "*.example.com": one, "api.example.com": exact])
        #expect(
            trust.hostPolicies.map { $0.pattern?.description } == [
                "api.example.com", "*.example.com", "**.example.com",
            ])
        #expect(trust.policy(forHost: "api.example.com") == exact)
        #expect(trust.policy(forHost: "www.example.com") == one)
        #expect(trust.policy(forHost: "a.www.example.com") == any)
        #expect(trust.policy(forHost: "example.com") == any)
        #expect(trust.policy(forHost: "example.org") == .system)
        #expect(trust.entry(forAuthority: "API.example.com:8443").policy == exact)
        #expect(trust.entry(forAuthority: "user@www.example.com:443").policy == one)
        #expect(try ServerTrust(hosts: ["::1": exact]).entry(forAuthority: "[::1]:8443").policy == exact)
        #expect(trust.isSystemDefault == false)
        #expect(ServerTrust.system.isSystemDefault)
        #expect(try ServerTrust(hosts: ["a.com": .system]).isSystemDefault)
    }

    @Test func theSamePatternTwiceIsRefused() {
        #expect(
            throws: TrustConfigurationError(.hostPattern, host: "api.example.com", reason: "the pattern is given twice")
        ) {
            try ServerTrust(hosts: ["api.example.com": .system, "API.example.com": .system])
        }
    }

    @Test func pemWithoutCertificatesIsRefused() {
        #expect(throws: TrustConfigurationError(.roots, reason: "the text holds no PEM certificate")) {
            try TLSCertificate.certificates(pem: "hello")
        }
        #expect(
            throws: TrustConfigurationError(.roots, reason: "a PEM block is not closed by -----END CERTIFICATE-----")
        ) {
            try TLSCertificate.certificates(pem: "-----BEGIN CERTIFICATE-----\nMAA=\n")
        }
        #expect(throws: TrustConfigurationError(.roots, reason: "a PEM block is not base64")) {
            try TLSCertificate.certificates(pem: "-----BEGIN CERTIFICATE-----\n!!\n-----END CERTIFICATE-----")
        }
        #expect(throws: TrustConfigurationError(.roots, reason: "the bytes are not one DER-encoded certificate")) {
            try TLSCertificate.certificates(pem: "-----BEGIN CERTIFICATE-----\nMAIA\n-----END CERTIFICATE-----")
        }
    }

    @Test func derAndPemRoundTrip() throws {
        // SEQUENCE { SEQUENCE { INTEGER 1 } }: the outer structure is all that is checked here.
        let der = Data([0x30, 0x05, 0x30, 0x03, 0x02, 0x01, 0x01])
        let certificate = try TLSCertificate(der: der)
        #expect(certificate.pem == "-----BEGIN CERTIFICATE-----\nMAUwAwIBAQ==\n-----END CERTIFICATE-----\n")
        #expect(
            try TLSCertificate.certificates(pem: "junk\n" + certificate.pem + certificate.pem) == [
                certificate, certificate,
            ])
        #expect(certificate.subjectPublicKeyInfo == nil)
        #expect(throws: TrustConfigurationError.self) { try TLSCertificate(der: der + [0]) }
    }

    @Test func clientIdentitiesKeepTheirSecretsOutOfDescriptions() throws {
        let certificate = try TLSCertificate(der: Data([0x30, 0x00]))
        let identity = try ClientIdentity.pem(
            certificateChain: certificate.pem,
            privateKey: "-----BEGIN PRIVATE KEY-----\nc2VjcmV0\n-----END PRIVATE KEY-----")
        #expect(identity.description == "ClientIdentity(PEM, 1 certificate(s), private key redacted)")
        #expect(
            ClientIdentity.pkcs12(Data(count: 10), passphrase: "hunter2").description
                == "ClientIdentity(PKCS #12, 10 bytes, passphrase redacted)")
        #expect(throws: TrustConfigurationError(.clientIdentity, reason: "the private key is not a PEM private key")) {
            try ClientIdentity.pem(certificateChain: certificate.pem, privateKey: "secret")
        }
        #expect(
            throws: TrustConfigurationError(
                .clientIdentity, reason: "the certificate chain: the text holds no PEM certificate")
        ) {
            try ClientIdentity.pem(certificateChain: "", privateKey: "secret")
        }
    }

    @Test func changedSettingsAreListedInOrder() throws {
        #expect(TrustPolicy.system.changedSettings == [])
        let policy = TrustPolicy(
            roots: .systemAnd([]), pins: [try PublicKeyPin(sha256: Self.hash)], minimumVersion: .tls13)
        #expect(policy.changedSettings == [.roots, .pins, .minimumVersion])
    }

    @Test func tlsFailuresDescribeThemselves() throws {
        let pin = try PublicKeyPin(sha256: Self.hash)
        #expect(TLSFailure(.expired).description == "certificate expired")
        #expect(
            TLSFailure(.pinMismatch, presentedPins: [pin]).description
                == "public key pin mismatch; the server presented sha256/AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
        let error = TransportError(tlsFailure: TLSFailure(.hostNameMismatch))
        #expect(error.kind == .tls)
        #expect(error.description == "TLS failure: host name mismatch")
        #expect(TransportError(.tls).tlsFailure == nil)
    }

    /// Security's statuses (trust evaluation and TLS handshake) read as reasons, on every platform.
    @Test(arguments: [
        (Int32(-67818), TLSFailure.Reason.expired), (-67819, .expired), (-9814, .expired), (-9815, .expired),
        (-67602, .hostNameMismatch), (-9843, .hostNameMismatch), (-9836, .protocolVersion),
        (-9842, .clientCertificateRequired), (-9807, .untrustedCertificate), (-9808, .untrustedCertificate),
        (-9812, .untrustedCertificate), (-9813, .untrustedCertificate),
    ])
    func securityStatusesReadAsReasons(status: Int32, reason: TLSFailure.Reason) {
        #expect(TLSFailure.Reason(securityStatus: status, otherwise: .handshakeFailed) == reason)
    }

    @Test func anUnlistedSecurityStatusIsTheCallersOtherwise() {
        #expect(TLSFailure.Reason(securityStatus: -25318, otherwise: .untrustedCertificate) == .untrustedCertificate)
        #expect(TLSFailure.Reason(securityStatus: 0, otherwise: .handshakeFailed) == .handshakeFailed)
    }
}
