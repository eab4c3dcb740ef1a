import HTTPTypes

extension HTTPResponse {
    /// Whether this response cannot carry a body, as the answer to a `method` request:
    /// the one rule every transport and the validation use (RFC 9110 §6.4.1).
    ///
    /// No body comes with the answer to `HEAD`, an informational (`1xx`) status,
    /// `204 No Content`, `205 Reset Content` or `304 Not Modified`, nor with a `2xx`
    /// answer to `CONNECT`. Transports return `nil` for such a body, whatever bytes
    /// arrived, and validation accepts them without a `Content-Type`.
    public func cannotHaveBody(respondingTo method: HTTPRequest.Method) -> Bool {
        if method == .head { return true }
        if method == .connect, status.kind == .successful { return true }
        switch status.code {
        case 100..<200, 204, 205, 304: return true
        default: return false
        }
    }
}
