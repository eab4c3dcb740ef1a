import Foundation
import HTTPTypes
import HTTPTypesFoundation
import Strata

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport {
    /// The request body's bytes: in-memory bytes as they are, a streamed body collected
    /// into memory (the transport's tasks upload from memory).
    static func collect(_ body: MessageBody?, limit: Int) async throws -> Data? {
        guard let body else { return nil }
        if let data = body.bufferedData { return data }
        do {
            return try await body.collect(upTo: limit)
        } catch let error as MessageBodyError {
            throw TransportError(.invalidRequest, underlying: error, detail: "request body: \(error)")
        }
    }

    /// The body to upload for `method`: `URLSession` fails `GET` and `HEAD` requests that
    /// carry a body (`URLError.dataLengthExceedsMaximum`, on Apple platforms and Linux
    /// alike), so an empty body is dropped for them and a non-empty one is refused.
    /// - Throws: ``TransportError/Kind/invalidRequest`` with
    ///   ``URLSessionTransportError/bodyNotAllowed(method:)``.
    static func payload(_ bytes: Data?, method: HTTPRequest.Method) throws -> Data? {
        guard let bytes, method == .get || method == .head else { return bytes }
        guard bytes.isEmpty else {
            let error = URLSessionTransportError.bodyNotAllowed(method: method.rawValue)
            throw TransportError(.invalidRequest, underlying: error, detail: error.description)
        }
        return nil
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
        #if canImport(FoundationNetworking)
            if request.headerFields[.acceptEncoding] == nil {
                urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
            }
        #endif
        return urlRequest
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
