import Foundation
import HTTPTypes
import HTTPTypesFoundation
import Strata

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport {
    /// What an upload task sends: bytes in memory, or a file the session reads as it goes.
    enum Upload: Sendable {
        case data(Data)
        case file(URL)
    }

    /// The upload for `body` and `method`: a body made from a file is sent from the file
    /// (memory stays bounded); bytes in memory as they are; any other streamed body is
    /// collected into memory first, up to `limit` bytes. `URLSession` fails `GET` and
    /// `HEAD` requests that carry a body (`URLError.dataLengthExceedsMaximum`, on Apple
    /// platforms and Linux alike), so an empty body is dropped for them and a non-empty
    /// one is refused.
    /// - Throws: ``TransportError/Kind/invalidRequest`` with
    ///   ``URLSessionTransportError/bodyNotAllowed(method:)``, or with
    ///   ``MessageBodyError`` when the body is larger than `limit` or cannot be read.
    static func upload(_ body: MessageBody?, method: HTTPRequest.Method, limit: Int) async throws -> Upload? {
        guard let body else { return nil }
        if method == .get || method == .head {
            let isEmpty =
                if let length = body.length { length == 0 } else { try await collect(body, limit: limit).isEmpty }
            guard isEmpty else {
                let error = URLSessionTransportError.bodyNotAllowed(method: method.rawValue)
                throw TransportError(.invalidRequest, underlying: error, detail: error.description)
            }
            return nil
        }
        if body.bufferedData == nil, let file = body.file { return .file(file) }
        return .data(try await collect(body, limit: limit))
    }

    /// The body's bytes, a streamed body collected into memory up to `limit` bytes.
    private static func collect(_ body: MessageBody, limit: Int) async throws -> Data {
        if let data = body.bufferedData { return data }
        do {
            return try await body.collect(upTo: limit)
        } catch let error as MessageBodyError {
            throw TransportError(.invalidRequest, underlying: error, detail: "request body: \(error)")
        }
    }

    /// `request` as a `URLRequest`, or ``TransportError/Kind/invalidRequest`` when it
    /// has no absolute URL (a scheme and an authority).
    ///
    /// On Linux a request without an `Accept-Encoding` field asks for `identity`: libcurl
    /// does not notice a compressed body cut short (see the type's documentation).
    static func makeURLRequest(_ request: HTTPRequest) throws -> URLRequest {
        guard request.scheme != nil, request.authority != nil,
            var urlRequest = URLRequest(httpRequest: request)
        else {
            let error = URLSessionTransportError.noAbsoluteURL
            throw TransportError(.invalidRequest, underlying: error, detail: error.description)
        }
        if Self.asksForIdentityEncoding, request.headerFields[.acceptEncoding] == nil {
            urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        }
        return urlRequest
    }

    /// Sets `URLRequest.assumesHTTP3Capable` where Foundation has it (Apple platforms);
    /// FoundationNetworking has no such switch, and libcurl there never speaks HTTP/3.
    static func assumeHTTP3(_ assumes: Bool, for urlRequest: inout URLRequest) {
        #if !canImport(FoundationNetworking)
            urlRequest.assumesHTTP3Capable = assumes
        #endif
    }

    /// Whether a request without `Accept-Encoding` asks for `identity`: on Linux, where
    /// libcurl does not notice a compressed body cut short.
    static var asksForIdentityEncoding: Bool {
        #if canImport(FoundationNetworking)
            true
        #else
            false
        #endif
    }

    /// The seconds left until `deadline`, rounded up to a whole second, for
    /// `URLRequest.timeoutInterval`.
    ///
    /// `FoundationNetworking` truncates the interval to whole seconds, so 0.3 s would
    /// time out at once; the exact deadline is the ``Networker``'s to enforce.
    /// - Throws: ``TransportError/Kind/timedOut`` when the deadline has already passed.
    static func timeoutInterval(until deadline: ContinuousClock.Instant) throws -> TimeInterval {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else {
            throw TransportError(.timedOut, detail: "the deadline passed before the request was sent")
        }
        let parts = remaining.components
        return TimeInterval(parts.seconds + (parts.attoseconds > 0 ? 1 : 0))
    }
}
