import Foundation

/// The SHA-256 hash of a public key's DER-encoded SubjectPublicKeyInfo, as OkHttp and
/// HPKP write it: `sha256/` and the hash in base64.
///
/// Compute one from a certificate with
/// `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`.
/// A pin survives a certificate's renewal as long as the key stays.
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes of the hash.
    public let sha256: Data

    /// Reads a pin written `sha256/<base64>` or as the base64 alone.
    /// - Throws: ``TrustConfigurationError`` with setting ``TrustConfigurationError/Setting/pins``
    ///   when the text is not base64 of 32 bytes.
    public init(_ text: String) throws(TrustConfigurationError) {
        let base64 = text.hasPrefix("sha256/") ? String(text.dropFirst("sha256/".count)) : text
        guard let hash = Data(base64Encoded: base64) else {
            throw TrustConfigurationError(.pins, reason: "\"\(text.prefix(80))\" is not base64")
        }
        try self.init(sha256: hash)
    }

    /// A pin from the hash's bytes.
    /// - Throws: ``TrustConfigurationError`` with setting ``TrustConfigurationError/Setting/pins``
    ///   when `sha256` does not hold 32 bytes.
    public init(sha256: Data) throws(TrustConfigurationError) {
        guard sha256.count == 32 else {
            throw TrustConfigurationError(.pins, reason: "a SHA-256 hash has 32 bytes, this one \(sha256.count)")
        }
        self.sha256 = Data(sha256)
    }

    /// `sha256/` and the hash in base64.
    public var description: String { "sha256/" + sha256.base64EncodedString() }
}
