import Foundation
import HTTPTypes
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
        let fields = try headerFields(of: urlResponse)
        guard (0...999).contains(urlResponse.statusCode) else {
            let error = URLSessionTransportError.invalidStatus(urlResponse.statusCode)
            throw TransportError(.malformedResponse, underlying: error, detail: error.description)
        }
        var head = HTTPResponse(status: .init(code: urlResponse.statusCode), headerFields: fields)
        head.fillInStandardReasonPhrase()
        return head
    }

    /// The header fields of `response`, read in one pass over `allHeaderFields` (as
    /// `HTTPURLResponse.httpResponse` reads them: names that are not valid tokens are
    /// dropped, values taken as ISO Latin 1).
    /// - Throws: ``TransportError/Kind/malformedResponse`` with
    ///   ``URLSessionTransportError/invalidHeaderField(_:)`` for the first field whose name or
    ///   value holds a control character (anything below `0x20` but the tab, and `0x7F`).
    private static func headerFields(of response: HTTPURLResponse) throws -> HTTPFields {
        let all = response.allHeaderFields
        var fields = HTTPFields()
        fields.reserveCapacity(all.count)
        for (key, value) in all {
            // The fields are strings; a cast is a fraction of what interpolation costs.
            var name = key.base as? String ?? "\(key)"
            var value = value as? String ?? "\(value)"
            let nameBytes = scan(&name)
            let valueBytes = scan(&value)
            if nameBytes.hasControl || valueBytes.hasControl {
                let shown = String(
                    decoding: name.utf8.map { isControl($0) ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
                let error = URLSessionTransportError.invalidHeaderField(shown)
                throw TransportError(.malformedResponse, underlying: error, detail: error.description)
            }
            if let fieldName = HTTPField.Name(name) {
                if fieldName == .setCookie {
                    // HTTPURLResponse joins a response's Set-Cookie fields with commas.
                    for cookie in HTTPFields.splitJoinedSetCookie(value) {
                        fields.append(
                            valueBytes.isASCII
                                ? HTTPField(name: fieldName, value: cookie) : field(fieldName, isoLatin1Value: cookie))
                    }
                    continue
                }
                fields.append(
                    valueBytes.isASCII
                        ? HTTPField(name: fieldName, value: value) : field(fieldName, isoLatin1Value: value))
            }
        }
        return fields
    }

    /// What one pass over a header name's or value's UTF-8 bytes finds: a control
    /// character, and whether every byte is ASCII. Read through the string's contiguous
    /// bytes: stepping through its `utf8` view checks the string's representation at every byte.
    private static func scan(_ text: inout String) -> (hasControl: Bool, isASCII: Bool) {
        text.withUTF8 { bytes in
            var hasControl = false
            var isASCII = true
            for byte in bytes {
                if isControl(byte) { hasControl = true }
                if byte >= 0x80 { isASCII = false }
            }
            return (hasControl, isASCII)
        }
    }

    /// Anything below `0x20` but the tab, and `0x7F`.
    private static func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != 0x09) || byte == 0x7F }

    /// A field whose value Foundation decoded as ISO Latin 1 (one scalar per byte) and
    /// holds a scalar outside ASCII, with those bytes, as `HTTPURLResponse.httpResponse`
    /// makes it; a scalar above `0xFF` cannot come from a byte and becomes a space.
    private static func field(_ name: HTTPField.Name, isoLatin1Value value: String) -> HTTPField {
        HTTPField(
            name: name, value: value.unicodeScalars.map { $0.value > 0xFF ? 0x20 : UInt8(truncatingIfNeeded: $0.value) }
        )
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
