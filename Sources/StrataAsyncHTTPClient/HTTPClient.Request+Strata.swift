import AsyncHTTPClient
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension HTTPClient.Request {
    /// The AsyncHTTPClient request for a Strata request and body.
    ///
    /// The URL is `scheme://authority` followed by the path (`/` when it has none). Header
    /// fields are copied in order; AsyncHTTPClient sets `Host` from the URL and the framing
    /// (`Content-Length` or `Transfer-Encoding: chunked`) from the body.
    /// - Throws: ``TransportError`` with kind ``TransportError/Kind/invalidRequest`` when
    ///   the request has no scheme or no authority, and AsyncHTTPClient's error for a URL
    ///   it cannot use.
    init(_ request: HTTPRequest, body: MessageBody?, eventLoop: any EventLoop) throws {
        guard let scheme = request.scheme, !scheme.isEmpty,
            let authority = request.authority, !authority.isEmpty
        else { throw TransportError(.invalidRequest) }
        let path = request.path.flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headerFields.count)
        for field in request.headerFields {
            headers.add(name: field.name.rawName, value: field.value)
        }
        try self.init(
            url: "\(scheme)://\(authority)\(path)", method: HTTPMethod(rawValue: request.method.rawValue),
            headers: headers, body: body.map { HTTPClient.Body($0, eventLoop: eventLoop) })
    }
}

extension HTTPClient.Body {
    /// The AsyncHTTPClient body for a Strata body: one buffer for bytes held in memory, a
    /// stream for anything else (read in a task of its own, written with back-pressure).
    init(_ body: MessageBody, eventLoop: any EventLoop) {
        if let data = body.bufferedData {
            self = .byteBuffer(ByteBuffer(data: data))
            return
        }
        self = .stream(contentLength: body.length) { writer in
            let written = eventLoop.makePromise(of: Void.self)
            written.completeWithTask {
                for try await chunk in body {
                    try await writer.write(.byteBuffer(ByteBuffer(data: chunk))).get()
                }
            }
            return written.futureResult
        }
    }
}
