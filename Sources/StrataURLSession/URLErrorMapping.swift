import Foundation
import Strata

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Classifies `URLSession` errors as `TransportError` kinds, following the table in
/// `TransportError`'s documentation.
///
/// On Apple platforms the `URLError` code says what happened. `FoundationNetworking`
/// (libcurl underneath) gives only a few curl failures a code of their own
/// (refused, timed out, host not found, reset, empty reply, unsupported protocol) and
/// reports every other one as `URLError.unknown` (-1) carrying curl's message as its
/// description; there the message decides (``CurlMessages``), then the code.
enum URLErrorMapping {
    /// `error` as a `TransportError`, with the `URLError` as its underlying error and
    /// a one-line ``TransportError/detail`` (code, name and message), so no multi-line
    /// `NSError` dump reaches a description.
    /// A `TransportError` (a refused server trust, recorded by the session's delegate)
    /// passes unchanged; a TLS failure carries its `TLSFailure` reason.
    static func map(_ error: any Error) -> TransportError {
        if let error = error as? TransportError { return error }
        guard let urlError = urlError(from: error) else {
            let nsError = error as NSError
            return TransportError(.other, underlying: error, detail: "\(nsError.domain) \(nsError.code)")
        }
        let kind = kind(of: urlError)
        guard kind == .tls else { return TransportError(kind, underlying: urlError, detail: detail(of: urlError)) }
        let failure = TLSFailure(tlsReason(of: urlError))
        return TransportError(tlsFailure: failure, underlying: urlError, detail: "\(failure) (\(detail(of: urlError)))")
    }

    /// Why a TLS connection was refused: by curl's message first on Linux, then by the code.
    static func tlsReason(of error: URLError) -> TLSFailure.Reason {
        #if canImport(FoundationNetworking)
            if let reason = CurlMessages.tlsReason(ofMessage: message(of: error)) { return reason }
        #endif
        return switch error.code {
        case .serverCertificateHasBadDate, .serverCertificateNotYetValid: .expired
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot: .untrustedCertificate
        case .clientCertificateRejected, .clientCertificateRequired: .clientCertificateRequired
        default: .handshakeFailed
        }
    }

    /// The kind of failure `error` stands for: by curl's message first on Linux, then by its code.
    static func kind(of error: URLError) -> TransportError.Kind {
        #if canImport(FoundationNetworking)
            if let kind = CurlMessages.kind(ofMessage: message(of: error)) { return kind }
        #endif
        return kind(of: error.code)
    }

    /// The kind of failure a `URLError` code stands for, as Apple's URL Loading System
    /// documents the codes.
    static func kind(of code: URLError.Code) -> TransportError.Kind {
        switch code {
        case .cannotConnectToHost:
            .connectionRefused
        case .timedOut:
            .timedOut
        case .networkConnectionLost:
            .connectionLost
        case .cannotFindHost, .dnsLookupFailed:
            .hostNotFound
        case .badServerResponse, .cannotParseResponse, .cannotDecodeContentData, .cannotDecodeRawData:
            .malformedResponse
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid,
            .clientCertificateRejected, .clientCertificateRequired:
            .tls
        case .badURL, .unsupportedURL:
            .invalidRequest
        default:
            .other
        }
    }

    /// One line: `URLError`, the code, its name when it has one here, and the error's
    /// message (curl's own on Linux), for example
    /// `URLError -1 unknown: transfer closed with 90 bytes remaining to read`. Foundation's
    /// generic text ("The operation could not be completed. (NSURLErrorDomain error
    /// -1001.)") only repeats the code and is left out.
    static func detail(of error: URLError) -> String {
        let code = error.code.rawValue
        let head = codeNames[code].map { "URLError \(code) \($0)" } ?? "URLError \(code)"
        let message = message(of: error)
        let generic = ["The operation could not be completed", "The operation couldn’t be completed"]
        if message.isEmpty || generic.contains(where: message.hasPrefix) { return head }
        return "\(head): \(message)"
    }

    /// The first line of the error's localized description, without surrounding spaces.
    static func message(of error: URLError) -> String {
        let text = (error as NSError).localizedDescription
        return String(text.prefix { !$0.isNewline }).trimmingCharacters(in: .whitespaces)
    }

    /// `error` as a `URLError`, also when it arrives as an `NSError` in `NSURLErrorDomain`.
    static func urlError(from error: any Error) -> URLError? {
        if let urlError = error as? URLError { return urlError }
        let nsError = error as NSError
        // The initialiser is failable in FoundationNetworking but not on Apple platforms.
        let code: URLError.Code? = URLError.Code(rawValue: nsError.code)
        guard nsError.domain == NSURLErrorDomain, let code else { return nil }
        return URLError(code, userInfo: nsError.userInfo)
    }

    /// The names of the codes the transport meets, as `URLError.Code` spells them.
    static let codeNames: [Int: String] = [
        -1: "unknown", -999: "cancelled", -1000: "badURL", -1001: "timedOut", -1002: "unsupportedURL",
        -1003: "cannotFindHost", -1004: "cannotConnectToHost", -1005: "networkConnectionLost",
        -1006: "dnsLookupFailed", -1007: "httpTooManyRedirects", -1008: "resourceUnavailable",
        -1009: "notConnectedToInternet", -1011: "badServerResponse", -1012: "userCancelledAuthentication",
        -1013: "userAuthenticationRequired", -1014: "zeroByteResource", -1015: "cannotDecodeRawData",
        -1016: "cannotDecodeContentData", -1017: "cannotParseResponse", -1103: "dataLengthExceedsMaximum",
        -1200: "secureConnectionFailed", -1201: "serverCertificateHasBadDate",
        -1202: "serverCertificateUntrusted", -1203: "serverCertificateHasUnknownRoot",
        -1204: "serverCertificateNotYetValid", -1205: "clientCertificateRejected",
        -1206: "clientCertificateRequired",
    ]
}
