import Strata

/// The libcurl failure messages that `FoundationNetworking` passes on as the description
/// of a `URLError`, sorted into ``TransportError`` kinds.
///
/// `FoundationNetworking` keeps curl's error code to itself: a few codes get a `URLError`
/// code of their own, every other failure arrives as `URLError.unknown` (-1) with curl's
/// message, and `URLError.unsupportedURL` (-1002) stands both for a URL curl cannot load
/// and for a reply that is not HTTP. The message is the only account of what happened,
/// so it is matched here. Observed on Linux (libcurl 7.88) against a raw socket server:
///
/// | what the server did | code | message |
/// |---|---|---|
/// | bytes that are not HTTP | -1002 | `Received HTTP/0.9 when not allowed` |
/// | status code outside 100…999 | -1002 | `Unsupported response code in HTTP response` |
/// | a head `FoundationNetworking` cannot parse (no space after the status code, a bad field name) | -1 | `Failed writing header` |
/// | a `Content-Length` that is not a number | -1 | `Invalid Content-Length: value` |
/// | a broken chunk size | -1 | `Illegal or missing hexadecimal sequence in chunked-encoding` |
/// | a chunk size of more than 16 hex digits | -1 | `Too long hexadecimal number in chunked-encoding` |
/// | a status line of an HTTP version other than 1.0 and 1.1 | -1002 | `Unsupported HTTP version in response` |
/// | a compressed body that does not inflate | -1 | `Error while processing content unencoding: …` |
/// | closed before the `Content-Length` was reached (also on a reset) | -1 | `transfer closed with 90 bytes remaining to read` |
/// | closed before the last chunk | -1 | `transfer closed with outstanding read data remaining` |
/// | closed without answering | -1011 | `Empty reply from server` |
///
/// A message that is not listed leaves the classification to the `URLError` code.
enum CurlMessages {
    /// The kind `message` stands for, or `nil` when it is not one of curl's known messages.
    static func kind(ofMessage message: String) -> TransportError.Kind? {
        if lostConnection.contains(where: message.hasPrefix) { return .connectionLost }
        if malformedReply.contains(where: message.hasPrefix) { return .malformedResponse }
        if tlsFailure.contains(where: message.hasPrefix) { return .tls }
        return nil
    }

    /// The connection closed or failed before the response was complete.
    static let lostConnection = [
        "transfer closed with", "Empty reply from server", "Recv failure", "Send failure",
        "Connection died", "Failed sending data to the peer",
    ]

    /// The reply broke HTTP: not HTTP at all, a bad head, bad framing, bad content coding.
    static let malformedReply = [
        "Received HTTP/0.9 when not allowed", "Unsupported response code in HTTP response",
        "Failed writing header", "Invalid Content-Length", "Overflow Content-Length",
        "Illegal or missing hexadecimal sequence", "Too long hexadecimal number", "Malformed encoding found",
        "Unsupported HTTP version in response",
        "Error while processing content unencoding", "Unrecognized content encoding type",
        "Weird server reply", "Header without colon", "Nul byte in header", "Too large response headers",
        "Excess found",
    ]

    /// The TLS handshake or the certificate check failed.
    static let tlsFailure = ["SSL", "OpenSSL", "TLS", "schannel", "SEC_E_"]

    /// Why a TLS connection was refused, by curl's message (OpenSSL's verify results,
    /// observed with libcurl 7.88 and OpenSSL 3): `SSL certificate problem: unable to get
    /// local issuer certificate` or `…: self-signed certificate` (untrusted),
    /// `…: certificate has expired`, `SSL: no alternative certificate subject name matches
    /// target host name`; `nil` when the message names none of them.
    static func tlsReason(ofMessage message: String) -> TLSFailure.Reason? {
        tlsReasons.first { marker, _ in message.contains(marker) }?.1
    }

    private static let tlsReasons: [(String, TLSFailure.Reason)] = [
        ("certificate has expired", .expired), ("certificate is not yet valid", .expired),
        ("unable to get local issuer certificate", .untrustedCertificate),
        ("self-signed certificate", .untrustedCertificate), ("self signed certificate", .untrustedCertificate),
        ("subject name matches target host name", .hostNameMismatch),
        ("does not match target host name", .hostNameMismatch),
        ("certificate required", .clientCertificateRequired),
        ("protocol version", .protocolVersion),
    ]
}
