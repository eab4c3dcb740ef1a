/// Failures that ``URLSessionTransport`` reports itself, as the `underlying` error of a
/// `TransportError`.
public enum URLSessionTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request has no scheme or authority, so it has no absolute URL to load.
    case noAbsoluteURL
    /// `URLSession` cannot send a body with this method (`GET` or `HEAD`).
    case bodyNotAllowed(method: String)
    /// `URLSession` finished without an error but without an HTTP response.
    case notHTTPResponse
    /// The response's status code is outside `100...999`.
    case invalidStatus(Int)
    /// A response header field (named here, control characters shown as `?`) holds a
    /// control character in its name or value.
    case invalidHeaderField(String)
    /// More than `limit` bytes of a streamed response body arrived and waited unread:
    /// the body was read more slowly than the network delivered it. A data task cannot be
    /// paused (in `FoundationNetworking`, resuming a suspended one starts it over), so the
    /// transport stops the request instead of holding an unbounded buffer; see
    /// ``URLSessionTransport/responseBufferLimit``.
    case responseBufferFull(limit: Int)

    /// A one-line description for logs.
    public var description: String {
        switch self {
        case .noAbsoluteURL: "the request has no absolute URL (scheme and authority)"
        case .bodyNotAllowed(let method): "URLSession cannot send a \(method) request with a body"
        case .notHTTPResponse: "URLSession returned no HTTP response"
        case .invalidStatus(let code): "the response status \(code) is not a valid HTTP status"
        case .invalidHeaderField(let name): "the response header field \(name) holds a control character"
        case .responseBufferFull(let limit):
            "more than \(limit) bytes of the response body arrived unread; URLSession cannot pause a transfer, so it was stopped"
        }
    }
}
