import Foundation
import PropertyBased
import Testing

@testable import Strata
@testable import StrataCore

/// Whatever a caller or a config file hands the trust values, they answer with a value or
/// a ``TrustConfigurationError``: never a crash.
@Suite struct TrustPropertyTests {
    @Test func randomPinsHostsAndAuthorities() async {
        await propertyCheck(count: 2000, input: PropertyGen.unicodeString(length: 0...40)) { text in
            if let pin = try? PublicKeyPin(text) {
                #expect(pin.sha256.count == 32)
                #expect((try? PublicKeyPin(pin.description)) == pin)
            }
            if let pattern = try? HostPattern(text) {
                #expect((try? HostPattern(pattern.description)) == pattern)
            }
            _ = ServerTrust.system.entry(forAuthority: text)
            _ = try? ServerTrust(hosts: [text: .system]).entry(forAuthority: text)
        }
    }

    @Test func randomPEMText() async {
        let markers = ["-----BEGIN CERTIFICATE-----", "-----END CERTIFICATE-----", "MAA=", "MAUwAwIBAQ==", "\n"]
        let pem = Generator<String, Shrink.None<String>> { rng in
            (0..<Int.random(in: 0...8, using: &rng)).map { _ in
                Bool.random(using: &rng)
                    ? markers.randomElement(using: &rng)! : PropertyGen.string(length: 0...6, using: &rng)
            }.joined()
        }
        await propertyCheck(count: 2000, input: pem) { text in
            if let certificates = try? TLSCertificate.certificates(pem: text) {
                #expect(!certificates.isEmpty)
                #expect((try? TLSCertificate.certificates(pem: certificates.map(\.pem).joined())) == certificates)
            }
        }
    }

    @Test func randomDERBytes() async {
        await propertyCheck(count: 2000, input: PropertyGen.bytes) { data in
            let certificate = try? TLSCertificate(der: data)
            _ = certificate?.subjectPublicKeyInfo
            // Any byte string wrapped in a SEQUENCE of the right length is taken as one.
            let wrapped = Data([0x30, 0x82, UInt8(data.count >> 8), UInt8(data.count & 0xFF)]) + data
            #expect((try? TLSCertificate(der: wrapped))?.der == wrapped)
        }
    }
}
