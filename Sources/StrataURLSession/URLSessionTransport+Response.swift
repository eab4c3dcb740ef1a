import Foundation
import HTTPTypes
import HTTPTypesFoundation
import Strata

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport {
    /// The response head of `response`: status (with its standard reason phrase, since
    /// `HTTPURLResponse` keeps none) and header fields.
    /// - Throws: ``TransportError/Kind/other`` with ``URLSessionTransportError/notHTTPResponse``;
    ///   ``TransportError/Kind/malformedResponse`` for a status outside `100...999`
    ///   (``URLSessionTransportError/invalidStatus(_:)``) or a header field holding a
    ///   control character (``URLSessionTransportError/invalidHeaderField(_:)``), which
    ///   libcurl lets through where other HTTP parsers refuse the response.
    static func head(of response: URLResponse?) throws -> HTTPResponse {
        guard let urlResponse = response as? HTTPURLResponse else {
            let error = URLSessionTransportError.notHTTPResponse
            throw TransportError(.other, underlying: error, detail: error.description)
        }
        if let name = invalidFieldName(in: urlResponse) {
            let error = URLSessionTransportError.invalidHeaderField(name)
            throw TransportError(.malformedResponse, underlying: error, detail: error.description)
        }
        guard var head = urlResponse.httpResponse else {
            let error = URLSessionTransportError.invalidStatus(urlResponse.statusCode)
            throw TransportError(.malformedResponse, underlying: error, detail: error.description)
        }
        head.fillInStandardReasonPhrase()
        return head
    }

    /// The name of the first header field whose name or value holds a control character
    /// (anything below `0x20` but the tab, and `0x7F`), or `nil`.
    private static func invalidFieldName(in response: HTTPURLResponse) -> String? {
        func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != 0x09) || byte == 0x7F }
        for (key, value) in response.allHeaderFields {
            // The fields are strings; a cast is a fraction of what interpolation costs.
            let name = key.base as? String ?? "\(key)"
            let value = value as? String ?? "\(value)"
            if name.utf8.contains(where: isControl) || value.utf8.contains(where: isControl) {
                return String(decoding: name.utf8.map { isControl($0) ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
            }
        }
        return nil
    }

    /// The body's byte count as the head declares it: the `Content-Length` of a body
    /// that is neither content-encoded (`URLSession` decodes it, so the header counts
    /// the compressed bytes) nor sent with a `Transfer-Encoding` (which overrides it).
    static func declaredLength(of head: HTTPResponse) -> Int64? {
        let fields = head.headerFields
        if fields[.transferEncoding] != nil { return nil }
        if let encoding = fields[.contentEncoding],
            encoding.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces).lowercased() != "identity"
            })
        {
            return nil
        }
        guard let value = fields[.contentLength], let length = Int64(value), length >= 0 else { return nil }
        return length
    }

    /// The head and the buffered body of a completion-handler task: `nil` when the
    /// response cannot have a body (``HTTPResponse/cannotHaveBody(respondingTo:)``);
    /// otherwise the bytes, possibly empty.
    static func makeResponse(
        _ outcome: (HTTPResponse, Data),
        method: HTTPRequest.Method
    ) -> (HTTPResponse, MessageBody?) {
        let (head, data) = outcome
        if head.cannotHaveBody(respondingTo: method) {
            return (head, nil)
        }
        return (head, MessageBody(data))
    }
}
