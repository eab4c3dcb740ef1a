import Foundation
import Strata
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Classifies `URLSession` errors as ``TransportError`` kinds.
enum URLErrorMapping {
    /// `error` as a ``TransportError`` (with the `URLError` as its underlying error), or
    /// `CancellationError` for a cancelled task while the calling task is cancelled.
    static func map(_ error: any Error) -> any Error {
        guard let urlError = urlError(from: error) else {
            return TransportError(.other, underlying: error as NSError)
        }
        if urlError.code == .cancelled, Task.isCancelled { return CancellationError() }
        return TransportError(kind(of: urlError.code), underlying: urlError)
    }

    /// The kind of failure a `URLError` code stands for.
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

    /// `error` as a `URLError`, also when it arrives as an `NSError` in `NSURLErrorDomain`.
    static func urlError(from error: any Error) -> URLError? {
        if let urlError = error as? URLError { return urlError }
        let nsError = error as NSError
        // The initialiser is failable in FoundationNetworking but not on Apple platforms.
        let code: URLError.Code? = URLError.Code(rawValue: nsError.code)
        guard nsError.domain == NSURLErrorDomain, let code else { return nil }
        return URLError(code, userInfo: nsError.userInfo)
    }
}
