import Foundation

/// What the fault server does for a request, chosen by the request's path (and query).
///
/// Each case names its request target (``target``); the server maps a received target
/// back with ``init(target:)``. An unknown target gets a `404` on a kept-alive connection.
///
/// | target | behaviour |
/// |---|---|
/// | `/ok` | `200` with ``FaultResponses/okBody``, keep-alive |
/// | `/never-answer` | reads the request, never answers, never closes |
/// | `/close-before-head` | reads the request, closes the connection (FIN) |
/// | `/reset-before-head` | reads the request, resets the connection (RST) |
/// | `/reset-mid-body` | head with `Content-Length: 4096`, 1024 bytes, then RST |
/// | `/trickle` | head with `Content-Length: 1000`, then one byte every 100 ms |
/// | `/length-too-long` | head with `Content-Length: 4096`, 1024 bytes, then FIN |
/// | `/length-too-short` | `Content-Length: 5`, more bytes than that (a whole smuggled response), keep-alive |
/// | `/gzip` | ``GzipBodies/intact`` with `Content-Encoding: gzip`, keep-alive |
/// | `/gzip-truncated` | ``GzipBodies/truncated``, complete framing, `Content-Encoding: gzip` |
/// | `/gzip-bomb` | ``GzipBodies/bomb`` (about 1 MiB inflating to 1 GiB), `Content-Encoding: gzip` |
/// | `/huge-length` | `Content-Length: 2147483648`, then bytes as fast as the client reads |
/// | `/endless-chunked` | a chunked body that never ends, as fast as the client reads |
/// | `/garbage` | bytes that are not HTTP, then silence (the connection stays open) |
/// | `/header-nul` | a `200` whose header value contains a NUL byte |
/// | `/header-control` | a `200` whose header value contains a control byte (BEL) |
/// | `/header-name-control` | a `200` whose header name contains a control byte (SOH) |
/// | `/redirect?status=S&to=URL[&body=1]` | status `S` with `Location: URL` (`to` percent-decoded), with a body when `body=1` |
/// | `/loop` | `302` to `/loop` |
/// | `/chain/N` | `302` to `/chain/N-1`; `/chain/0` redirects to `/ok` |
/// | `/unavailable` | `503 Service Unavailable` with `Retry-After: 1` and ``FaultResponses/unavailableBody`` |
/// | `/unavailable-no-reason` | the same with the status line `HTTP/1.1 503 \r\n` |
public enum FaultRoute: Sendable, Hashable, CustomStringConvertible {
    /// `/ok`: a normal `200`.
    case ok
    /// `/never-answer`: accepts and reads, never answers.
    case neverAnswer
    /// `/close-before-head`: closes the connection instead of answering.
    case closeBeforeHead
    /// `/reset-before-head`: resets the connection instead of answering.
    case resetBeforeHead
    /// `/reset-mid-body`: resets the connection in the middle of the body.
    case resetMidBody
    /// `/trickle`: the head, then the body one byte every 100 ms, past any deadline.
    case trickle
    /// `/length-too-long`: a `Content-Length` larger than the body, then FIN.
    case lengthTooLong
    /// `/length-too-short`: more body bytes than `Content-Length`, on a kept-alive connection.
    case lengthTooShort
    /// `/gzip`: a well-formed gzip body.
    case gzip
    /// `/gzip-truncated`: a gzip stream cut short, with complete HTTP framing.
    case gzipTruncated
    /// `/gzip-bomb`: about 1 MiB of gzip that inflates to 1 GiB.
    case gzipBomb
    /// `/huge-length`: `Content-Length: 2147483648` and bytes streaming fast.
    case hugeLength
    /// `/endless-chunked`: a chunked body streaming fast, forever.
    case endlessChunked
    /// `/garbage`: bytes that are not an HTTP response.
    case garbage
    /// `/header-nul`: a NUL byte in a header value.
    case headerNUL
    /// `/header-control`: a control byte in a header value.
    case headerControl
    /// `/header-name-control`: a control byte in a header name.
    case headerNameControl
    /// `/redirect?status=…&to=…`: a redirect with `Location: to`, with or without a body.
    case redirect(status: Int, to: String, withBody: Bool)
    /// `/loop`: a redirect to itself.
    case loop
    /// `/chain/N`: `N` redirects before `/ok`.
    case chain(Int)
    /// `/unavailable`: `503` with a reason phrase and `Retry-After: 1`.
    case unavailable
    /// `/unavailable-no-reason`: `503` without a reason phrase and with `Retry-After: 1`.
    case unavailableNoReason

    /// The routes without parameters, each with its fixed path.
    static let fixedPaths: [(FaultRoute, String)] = [
        (.ok, "/ok"), (.neverAnswer, "/never-answer"), (.closeBeforeHead, "/close-before-head"),
        (.resetBeforeHead, "/reset-before-head"), (.resetMidBody, "/reset-mid-body"), (.trickle, "/trickle"),
        (.lengthTooLong, "/length-too-long"), (.lengthTooShort, "/length-too-short"), (.gzip, "/gzip"),
        (.gzipTruncated, "/gzip-truncated"), (.gzipBomb, "/gzip-bomb"), (.hugeLength, "/huge-length"),
        (.endlessChunked, "/endless-chunked"), (.garbage, "/garbage"), (.headerNUL, "/header-nul"),
        (.headerControl, "/header-control"), (.headerNameControl, "/header-name-control"), (.loop, "/loop"),
        (.unavailable, "/unavailable"), (.unavailableNoReason, "/unavailable-no-reason"),
    ]

    /// Every route without parameters (all but ``redirect(status:to:withBody:)`` and
    /// ``chain(_:)``), in the order of the table above.
    public static var allWithoutParameters: [FaultRoute] { fixedPaths.map(\.0) }

    /// The request target (path and query) that selects this behaviour.
    public var target: String {
        switch self {
        case .redirect(let status, let to, let withBody):
            let encoded = to.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? to
            return "/redirect?status=\(status)&to=\(encoded)" + (withBody ? "&body=1" : "")
        case .chain(let count):
            return "/chain/\(count)"
        default:
            // Every other case has a fixed path.
            return Self.fixedPaths.first { $0.0 == self }!.1
        }
    }

    /// The behaviour a request target selects, or `nil` for an unknown target.
    public init?(target: String) {
        let path = String(target.prefix { $0 != "?" })
        if let fixed = Self.fixedPaths.first(where: { $0.1 == path }) {
            self = fixed.0
        } else if path.hasPrefix("/chain/"), let count = Int(path.dropFirst("/chain/".count)), count >= 0 {
            self = .chain(count)
        } else if path == "/redirect" {
            let query = Self.query(of: target)
            guard let status = query["status"].flatMap({ Int($0) }), (300...399).contains(status),
                let to = query["to"]
            else { return nil }
            self = .redirect(status: status, to: to, withBody: query["body"] == "1")
        } else {
            return nil
        }
    }

    /// The target, for test names.
    public var description: String { target }

    /// The characters a query value keeps as they are (RFC 3986's unreserved set).
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` with its percent-escapes decoded; as it is when they are malformed.
    private static func decode(_ text: Substring) -> String {
        text.removingPercentEncoding ?? String(text)
    }

    /// The query's parameters, percent-decoded; a later duplicate wins.
    private static func query(of target: String) -> [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var parameters: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? parts[1] : ""
            parameters[decode(parts[0])] = decode(value)
        }
        return parameters
    }
}
