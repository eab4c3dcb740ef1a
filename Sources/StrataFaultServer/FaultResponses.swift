import NIOCore

/// The bytes the fault server answers with, so that tests can assert exact values.
public enum FaultResponses {
    /// The body of `/ok`: `ok`.
    public static let okBody = "ok"
    /// The body `/length-too-short` declares with `Content-Length: 5`: `hello`.
    public static let declaredShortBody = "hello"
    /// The bytes `/length-too-short` sends after its declared body: a whole second
    /// response, which a client that reuses the connection would take for the answer to
    /// its next request.
    public static let smuggledResponse = "HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\nSMUGGLED"
    /// The body of both `503` routes.
    public static let unavailableBody = "try again in a second"
    /// The body of a redirect sent with `body=1`.
    public static let redirectBody = "this resource has moved"
    /// The body of a `404` for an unknown target.
    public static let notFoundBody = "no such fault"
    /// What `/garbage` sends instead of an HTTP response.
    public static let garbage: [UInt8] = Array("\u{16}\u{03}\u{01}SSH-2.0 this is not HTTP at all\r\n\r\n".utf8)
    /// The declared `Content-Length` of `/huge-length`: 2 GiB.
    public static let hugeLength: Int64 = 2_147_483_648
    /// The declared `Content-Length` of `/reset-mid-body` and `/length-too-long`, which
    /// send only ``partialBodySize`` bytes of it.
    public static let declaredPartialLength = 4096
    /// How many body bytes `/reset-mid-body` and `/length-too-long` send.
    public static let partialBodySize = 1024
    /// The declared `Content-Length` of `/trickle`.
    public static let trickleLength = 1000
    /// How long `/trickle` waits between two body bytes.
    public static let trickleInterval = Duration.milliseconds(100)

    /// The reason phrases of the statuses the server sends.
    static let reasonPhrases: [Int: String] = [
        200: "OK", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect", 404: "Not Found", 501: "Not Implemented",
        503: "Service Unavailable",
    ]

    /// A response head: `statusLine` (without its CRLF), then each field as `name: value`,
    /// then the blank line. Names and values are written as they are, control bytes included.
    static func head(_ statusLine: String, _ fields: [(String, String)]) -> ByteBuffer {
        var head = statusLine + "\r\n"
        for (name, value) in fields { head += "\(name): \(value)\r\n" }
        return ByteBuffer(string: head + "\r\n")
    }

    /// A head with the status line `HTTP/1.1 {status} {reason}` (`Redirect` for a 3xx
    /// without a registered phrase).
    static func head(status: Int, _ fields: [(String, String)]) -> ByteBuffer {
        head("HTTP/1.1 \(status) \(reasonPhrases[status] ?? "Redirect")", fields)
    }

    /// A complete response: `head` followed by `body`, with `Content-Length` added.
    static func complete(status: Int, _ fields: [(String, String)] = [], body: String) -> ByteBuffer {
        var response = head(status: status, fields + [("Content-Length", "\(body.utf8.count)")])
        response.writeString(body)
        return response
    }
}
