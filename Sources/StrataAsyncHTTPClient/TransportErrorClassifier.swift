import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL
import Strata

/// Sorts the errors AsyncHTTPClient and SwiftNIO throw into what a ``Transport`` reports:
/// `CancellationError`, or a ``TransportError`` of the right ``TransportError/Kind``
/// carrying the original error as its ``TransportError/underlying``.
enum TransportErrorClassifier {
    /// What to throw in place of `error`, for a request due by `deadline`.
    ///
    /// - A cancelled task, `CancellationError` and AsyncHTTPClient's `cancelled` become
    ///   `CancellationError` — except `cancelled` after the deadline, which is how
    ///   AsyncHTTPClient reports a request that timed out while waiting for a connection.
    /// - ``TransportError`` and ``MessageBodyError`` (from the request body) pass unchanged.
    /// - Everything else becomes a ``TransportError`` of the kind ``kind(of:)`` finds.
    static func classify(_ error: any Error, deadline: ContinuousClock.Instant?) -> any Error {
        if Task.isCancelled || error is CancellationError { return CancellationError() }
        if error is TransportError || error is MessageBodyError { return error }
        if let clientError = error as? HTTPClientError, clientError == .cancelled {
            if let deadline, deadline <= .now { return TransportError(.timedOut, underlying: error) }
            return CancellationError()
        }
        if let (failure, code) = tlsFailure(of: error) {
            return TransportError(tlsFailure: failure, underlying: error, detail: code.map { "\(failure) (\($0))" })
        }
        return TransportError(kind(of: error), underlying: error)
    }

    /// Why a TLS connection was refused, and BoringSSL's short code when it gave one
    /// (`CERTIFICATE_VERIFY_FAILED`); `nil` for errors that are not swift-nio-ssl's.
    /// BoringSSL gives one code for a chain that leads to no trusted root and for an
    /// expired certificate, so both are ``TLSFailure/Reason/untrustedCertificate`` here.
    static func tlsFailure(of error: any Error) -> (TLSFailure, String?)? {
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
        let reasons: [(String, TLSFailure.Reason)] = [
            ("CERTIFICATE_VERIFY_FAILED", .untrustedCertificate),
            ("CERTIFICATE_REQUIRED", .clientCertificateRequired),
            ("PEER_DID_NOT_RETURN_A_CERTIFICATE", .clientCertificateRequired),
            ("PROTOCOL_VERSION", .protocolVersion),
            ("UNSUPPORTED_PROTOCOL", .protocolVersion),
        ]
        let reason = reasons.first { marker, _ in codes.contains { $0.contains(marker) } }?.1 ?? .handshakeFailed
        return (TLSFailure(reason), codes.first)
    }

    /// The kind of failure `error` stands for; ``TransportError/Kind/other`` when unknown.
    static func kind(of error: any Error) -> TransportError.Kind {
        switch error {
        case let error as HTTPClientError: kind(of: error)
        case let error as NIOConnectionError: kind(of: error)
        case let error as IOError: kind(ofErrno: error.errnoCode)
        case let error as ChannelError: kind(of: error)
        case HTTPParserError.invalidEOFState: .connectionLost  // closed before the message ended
        case is HTTPParserError: .malformedResponse  // not HTTP, bad framing or header bytes
        case is NIOHTTPDecoderError: .malformedResponse  // a response no request asked for
        case NIOHTTPDecompression.DecompressionError.limit: .bodyTooLarge  // the bomb guard
        case is NIOHTTPDecompression.DecompressionError, is NIOHTTPDecompression.ExtraDecompressionError:
            .malformedResponse  // a compressed body that does not decompress (corrupt, cut short)
        default: platformKind(of: error) ?? .other
        }
    }

    private static let timeouts: [HTTPClientError] = [
        .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .getConnectionFromPoolTimeout,
        .tlsHandshakeTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout,
    ]
    private static let lostConnections: [HTTPClientError] = [.remoteConnectionClosed, .uncleanShutdown]
    private static let invalidRequests: [HTTPClientError] = [
        .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath, .traceRequestWithBody, .bodyLengthMismatch,
    ]
    /// Errors with associated values, recognised by their short description.
    private static let invalidRequestDescriptions: Set<String> = [
        HTTPClientError.unsupportedScheme("").shortDescription,
        HTTPClientError.invalidHeaderFieldNames([]).shortDescription,
        HTTPClientError.invalidHeaderFieldValues([]).shortDescription,
    ]

    private static func kind(of error: HTTPClientError) -> TransportError.Kind {
        if timeouts.contains(error) { return .timedOut }
        if lostConnections.contains(error) { return .connectionLost }
        if invalidRequests.contains(error) || invalidRequestDescriptions.contains(error.shortDescription) {
            return .invalidRequest
        }
        return .other
    }

    /// A failed connect: refused when any address refused, host not found when no address
    /// was tried, otherwise the kind of the first attempt's failure.
    private static func kind(of error: NIOConnectionError) -> TransportError.Kind {
        let attempts = error.connectionErrors.map { kind(of: $0.error) }
        if attempts.contains(.connectionRefused) { return .connectionRefused }
        return attempts.first ?? .hostNotFound
    }

    private static func kind(of error: ChannelError) -> TransportError.Kind {
        switch error {
        case .connectTimeout: .timedOut
        case .ioOnClosedChannel, .alreadyClosed, .eof, .inputClosed, .outputClosed: .connectionLost
        default: .other
        }
    }

    private static func kind(ofErrno code: CInt) -> TransportError.Kind {
        switch code {
        case ECONNREFUSED: .connectionRefused
        case ETIMEDOUT: .timedOut
        case ECONNRESET, ECONNABORTED, EPIPE, ENOTCONN: .connectionLost
        default: .other
        }
    }

    /// Network.framework errors, as AsyncHTTPClient wraps them on Apple platforms.
    private static func platformKind(of error: any Error) -> TransportError.Kind? {
        #if canImport(Network)
            if let error = error as? HTTPClient.NWPOSIXError { return kind(ofErrno: error.errorCode.rawValue) }
            if error is HTTPClient.NWTLSError { return .tls }
        #endif
        return nil
    }
}
