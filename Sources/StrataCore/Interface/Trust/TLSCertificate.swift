import Foundation

/// One X.509 certificate, held in DER: a root to trust, or a link of a client's chain.
///
/// Read certificates from PEM text (one or a bundle) with ``certificates(pem:)``, or from
/// DER bytes with ``init(der:)``. Only the outer structure is checked here; the transport
/// that uses the certificate parses it whole, and refuses one it cannot read when it is made.
public struct TLSCertificate: Sendable, Hashable {
    /// The certificate's DER encoding.
    public let der: Data

    /// A certificate from its DER encoding.
    /// - Throws: ``TrustConfigurationError`` with setting ``TrustConfigurationError/Setting/roots``
    ///   when the bytes are not one DER `SEQUENCE` whose length matches them.
    public init(der: Data) throws(TrustConfigurationError) {
        let bytes = [UInt8](der)
        guard let element = DERElement(bytes, at: 0), element.tag == 0x30, element.end == bytes.count else {
            throw TrustConfigurationError(.roots, reason: "the bytes are not one DER-encoded certificate")
        }
        self.der = Data(bytes)
    }

    /// Every certificate of a PEM text, in order (`-----BEGIN CERTIFICATE-----` blocks;
    /// text between blocks is ignored).
    /// - Throws: ``TrustConfigurationError`` with setting ``TrustConfigurationError/Setting/roots``
    ///   when the text holds no certificate, a block is not closed, or a block is not base64
    ///   of a DER certificate.
    public static func certificates(pem: String) throws(TrustConfigurationError) -> [TLSCertificate] {
        let blocks = try PEMBlocks.decode(pem, label: "CERTIFICATE")
        guard !blocks.isEmpty else {
            throw TrustConfigurationError(.roots, reason: "the text holds no PEM certificate")
        }
        var certificates: [TLSCertificate] = []
        for block in blocks { certificates.append(try TLSCertificate(der: block)) }
        return certificates
    }

    /// The certificate in PEM: the base64 of ``der`` in lines of 64 between the markers.
    public var pem: String { PEMBlocks.encode(der, label: "CERTIFICATE") }

    /// The DER encoding of the certificate's public key (its SubjectPublicKeyInfo), whose
    /// SHA-256 hash is its ``PublicKeyPin``; `nil` when the certificate's structure does not
    /// lead to one.
    package var subjectPublicKeyInfo: Data? {
        let bytes = [UInt8](der)
        // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL,
        //   serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, … } … }
        guard let certificate = DERElement(bytes, at: 0), certificate.tag == 0x30,
            let tbs = DERElement(bytes, at: certificate.contentStart), tbs.tag == 0x30, tbs.end <= certificate.end
        else { return nil }
        var position = tbs.contentStart
        var index = 0
        while position < tbs.end, let element = DERElement(bytes, at: position), element.end <= tbs.end {
            if index == 0 && element.tag == 0xA0 {  // the explicit version: not counted
                position = element.end
                continue
            }
            if index == 5 { return element.tag == 0x30 ? Data(bytes[position..<element.end]) : nil }
            index += 1
            position = element.end
        }
        return nil
    }
}

/// One DER element's tag and where its content lies, read without copying.
struct DERElement {
    let tag: UInt8
    let contentStart: Int
    let end: Int

    /// The element starting at `start`, or `nil` when the bytes there are not a complete
    /// element with a single-byte tag and a definite length of at most four bytes.
    init?(_ bytes: [UInt8], at start: Int) {
        guard start >= 0, start + 2 <= bytes.count else { return nil }
        tag = bytes[start]
        guard tag & 0x1F != 0x1F else { return nil }  // multi-byte tags do not occur here
        let first = Int(bytes[start + 1])
        var length = first
        var contentStart = start + 2
        if first & 0x80 != 0 {
            let count = first & 0x7F
            guard (1...4).contains(count), contentStart + count <= bytes.count else { return nil }
            length = bytes[contentStart..<contentStart + count].reduce(0) { $0 << 8 | Int($1) }
            contentStart += count
        }
        guard length <= bytes.count - contentStart else { return nil }
        self.contentStart = contentStart
        self.end = contentStart + length
    }
}

/// PEM's `-----BEGIN LABEL-----` blocks, both ways.
enum PEMBlocks {
    /// The decoded bytes of every block with `label`, in order.
    static func decode(_ text: String, label: String) throws(TrustConfigurationError) -> [Data] {
        let begin = "-----BEGIN \(label)-----"
        let end = "-----END \(label)-----"
        var blocks: [Data] = []
        var rest = Substring(text)
        while let start = rest.range(of: begin) {
            guard let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) else {
                throw TrustConfigurationError(.roots, reason: "a PEM block is not closed by \(end)")
            }
            let base64 = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            guard let bytes = Data(base64Encoded: String(base64)) else {
                throw TrustConfigurationError(.roots, reason: "a PEM block is not base64")
            }
            blocks.append(bytes)
            rest = rest[stop.upperBound...]
        }
        return blocks
    }

    /// `bytes` as one PEM block with `label`.
    static func encode(_ bytes: Data, label: String) -> String {
        let base64 = Array(bytes.base64EncodedString())
        let lines = stride(from: 0, to: base64.count, by: 64).map { String(base64[$0..<min($0 + 64, base64.count)]) }
        return (["-----BEGIN \(label)-----"] + lines + ["-----END \(label)-----"]).joined(separator: "\n") + "\n"
    }
}
