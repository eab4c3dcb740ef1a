import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSOCKS
import Strata
import StrataNIOSSL

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
        if Task.isCancelled || StrataError.isCancellation(error) { return CancellationError() }
        if error is TransportError || error is MessageBodyError { return error }
        if let clientError = error as? HTTPClientError, clientError == .cancelled {
            if Deadline.hasPassed(deadline) { return TransportError(.timedOut, underlying: error) }
            return CancellationError()
        }
        if let tlsError = TransportError(readingTLSError: error) ?? platformTLSError(error) { return tlsError }
        return TransportError(kind(of: error), underlying: error)
    }

    /// The kind of failure `error` stands for; ``TransportError/Kind/other`` when unknown.
    static func kind(of error: any Error) -> TransportError.Kind {
        switch error {
        case let error as HTTPClientError: kind(of: error)
        case let error as NIOConnectionError: kind(of: error)
        case let error as IOError: kind(ofErrno: error.errnoCode)
        case let error as ChannelError: kind(of: error)
        case is SOCKSError.InvalidServerState, is SOCKSError.InvalidProtocolVersion, is SOCKSError.InvalidReservedByte,
            is SOCKSError.InvalidAddressType, is SOCKSError.InvalidAuthenticationSelection,
            is SOCKSError.NoValidAuthenticationMethod, is SOCKSError.ConnectionFailed, is SOCKSError.UnexpectedRead:
            .proxy  // the SOCKS proxy's handshake failed, or it could not reach the origin
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
    private static let proxyFailures: [HTTPClientError] = [.proxyAuthenticationRequired, .invalidProxyResponse]
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
        if proxyFailures.contains(error) { return .proxy }
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

    /// A Network.framework TLS error, as AsyncHTTPClient wraps it on Apple platforms for a
    /// client the app made on Network.framework, with the reason its status stands for.
    private static func platformTLSError(_ error: any Error) -> TransportError? {
        #if canImport(Network)
            if let error = error as? HTTPClient.NWTLSError {
                let reason = TLSFailure.Reason(securityStatus: error.status, otherwise: .handshakeFailed)
                return TransportError(tlsFailure: TLSFailure(reason), underlying: error)
            }
        #endif
        return nil
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
