import HTTPTypes

extension HTTPRequest.Method {
    /// The methods RFC 9110 (§9.2.2) defines as idempotent: `GET`, `HEAD`, `OPTIONS`,
    /// `PUT`, `DELETE` and `TRACE`. Sending such a request twice has the effect of sending
    /// it once, so a client may send it again after a failure on its own.
    public static let idempotent: Set<HTTPRequest.Method> = [.get, .head, .options, .put, .delete, .trace]
}
