import AsyncHTTPClient
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension HTTPClientRequest {
    /// The AsyncHTTPClient request for a Strata request and body.
    ///
    /// The URL is `scheme://authority` followed by the path (`/` when it has none). Header
    /// fields are copied in order; AsyncHTTPClient sets `Host` from the URL and the framing
    /// (`Content-Length` or `Transfer-Encoding: chunked`) from the body.
    /// - Throws: ``TransportError`` with kind ``TransportError/Kind/invalidRequest`` when
    ///   the request has no scheme or no authority.
    init(_ request: HTTPRequest, body: MessageBody?) throws {
        guard let scheme = request.scheme, !scheme.isEmpty,
            let authority = request.authority, !authority.isEmpty
        else { throw TransportError(.invalidRequest) }
        let path = request.path.flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        self.init(url: "\(scheme)://\(authority)\(path)")
        self.method = HTTPMethod(rawValue: request.method.rawValue)
        var cookies: [String] = []
        for field in request.headerFields {
            if field.name == .cookie {
                cookies.append(field.value)
            } else {
                self.headers.add(name: field.name.rawName, value: field.value)
            }
        }
        // One Cookie line, its pairs joined by "; " (RFC 6265 §5.4): HTTPFields keeps a
        // pair per field, as HTTP/2 may send them.
        if !cookies.isEmpty { self.headers.add(name: "Cookie", value: cookies.joined(separator: "; ")) }
        self.body = body.map(Body.init)
    }
}

extension HTTPClientRequest.Body {
    /// The AsyncHTTPClient body for a Strata body: one buffer for bytes held in memory
    /// (which can be resent on a redirect), a stream for anything else.
    init(_ body: MessageBody) {
        if let data = body.bufferedData {
            self = .bytes(ByteBuffer(data: data))
        } else {
            let length: Length = body.length.map { .known($0) } ?? .unknown
            self = .stream(body.map { ByteBuffer(data: $0) }, length: length)
        }
    }
}
