import AsyncHTTPClient
import HTTPTypes
import NIOHTTP1

/// Turns an AsyncHTTPClient response into a Strata response head and streamed body.
enum ResponseConversion {
    /// The head and body of `response`, the answer to a `requestMethod` request.
    ///
    /// The body is `nil` when the response cannot have one
    /// (``HTTPResponse/cannotHaveBody(respondingTo:)``). Otherwise it streams from the
    /// connection. Its length comes from `Content-Length`,
    /// except when the body is content-encoded: AsyncHTTPClient may decompress it, and then
    /// the header counts the compressed bytes, so the length is left unknown.
    /// The body keeps `owner` (the transport's own client) alive while it streams.
    /// - Throws: ``TransportError`` with kind ``TransportError/Kind/other`` for a status
    ///   code outside `0...999`.
    static func convert(
        _ response: HTTPClientResponse,
        requestMethod: HTTPRequest.Method,
        deadline: ContinuousClock.Instant?,
        keepingAlive owner: OwnedClient?
    ) throws -> (HTTPResponse, MessageBody?) {
        let head = try HTTPResponse(response)
        if head.cannotHaveBody(respondingTo: requestMethod) { return (head, nil) }
        let body = MessageBody(
            length: length(of: response.headers),
            streaming: ResponseBodyChunks(response.body, deadline: deadline, keepingAlive: owner)
        )
        return (head, body)
    }

    private static func length(of headers: HTTPHeaders) -> Int64? {
        let encodings = headers["content-encoding"].map { $0.lowercased() }
        if encodings.contains(where: { $0 != "identity" }) { return nil }
        guard let value = headers.first(name: "content-length"), let length = Int64(value), length >= 0
        else { return nil }
        return length
    }
}

extension HTTPResponse {
    /// The head of an AsyncHTTPClient response: status, reason phrase and header fields
    /// (fields whose names are not valid HTTP tokens are dropped).
    /// - Throws: ``TransportError`` with kind ``TransportError/Kind/other`` for a status
    ///   code outside `0...999`.
    init(_ response: HTTPClientResponse) throws {
        try self.init(
            code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase, headers: response.headers)
    }

    /// A head from NIO's parts: status, reason phrase and header fields (fields whose names
    /// are not valid HTTP tokens are dropped).
    /// - Throws: ``TransportError`` with kind ``TransportError/Kind/other`` for a status
    ///   code outside `0...999`.
    init(code: Int, reasonPhrase: String, headers: HTTPHeaders) throws {
        guard (0...999).contains(code) else { throw TransportError(.other) }
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count)
        for (name, value) in headers {
            guard let fieldName = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        self.init(status: Status(code: code, reasonPhrase: reasonPhrase), headerFields: fields)
    }
}

extension HTTPVersion {
    /// The version as the OpenTelemetry conventions write it: `1.1`, `2`.
    var otelName: String { minor == 0 && major >= 2 ? "\(major)" : "\(major).\(minor)" }
}
