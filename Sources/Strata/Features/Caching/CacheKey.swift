import HTTPTypes

/// The primary key of a stored response (RFC 9111 §2): the method and the target URI,
/// normalised so that equivalent URIs share one entry.
///
/// Normalisation (RFC 9110 §4.2.3): the scheme and host are lowercased, a default port
/// (`80` for `http`, `443` for `https`) or an empty one is dropped, other ports lose
/// leading zeros, and an empty path is `/`. The path and query are kept as sent: `?b&a`
/// and `?a&b` are different resources to a cache, and so are `%41` and `A`.
///
/// The secondary key, the request fields a response's `Vary` names, is stored with the
/// response (``CachedResponse/variedFields``).
public struct CacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The method, `GET`.
    public let method: String
    /// The normalised target URI, `https://example.com/users?page=2`.
    public let uri: String

    /// The key of `request`, or `nil` when it has no scheme or authority (a request
    /// that is not for an `http(s)` URI).
    public init?(_ request: HTTPRequest) {
        self.init(
            method: request.method.rawValue, scheme: request.scheme, authority: request.authority, path: request.path)
    }

    /// The key of a request for `method` on the URI made of `scheme`, `authority` and
    /// `path` (path and query); `nil` without a scheme or an authority.
    public init?(method: String, scheme: String?, authority: String?, path: String?) {
        guard let scheme = scheme?.lowercased(), !scheme.isEmpty, let authority, !authority.isEmpty else { return nil }
        var path = path ?? ""
        if !path.hasPrefix("/") { path = "/" + path }
        self.method = method
        self.uri = "\(scheme)://\(Self.normalise(authority: authority, scheme: scheme))\(path)"
    }

    /// `GET https://example.com/users`
    public var description: String { "\(method) \(uri)" }

    /// The same URI with the method `GET`: the entry a response to another method reads
    /// or invalidates.
    var forGet: CacheKey { CacheKey(method: "GET", uri: uri) }

    /// Where a partial response (`206`) to a `GET` of the URI is kept, apart from the
    /// complete one: the URI with the fragment `#bytes`, which no request target has.
    var forPartial: CacheKey { CacheKey(method: "GET", uri: uri + "#bytes") }

    private init(method: String, uri: String) {
        self.method = method
        self.uri = uri
    }

    /// The origin (`scheme://host[:port]`) of the URI, for same-origin checks.
    var origin: Substring {
        guard let schemeEnd = uri.range(of: "://") else { return uri[...] }
        let rest = uri[schemeEnd.upperBound...]
        return uri[..<(rest.firstIndex(of: "/") ?? uri.endIndex)]
    }

    /// `user@Host:0080` → `user@host:80`; `[::1]:443` for `https` → `[::1]`.
    ///
    /// Works on the UTF-8 bytes (every delimiter is ASCII, so each slice is valid
    /// UTF-8): the key is built for every request through a cache, hits included.
    private static func normalise(authority: String, scheme: String) -> String {
        var authority = authority
        return authority.withUTF8 { normalise(authority: $0, scheme: scheme) }
    }

    private static func normalise(authority bytes: UnsafeBufferPointer<UInt8>, scheme: String) -> String {
        let at = bytes.lastIndex(of: UInt8(ascii: "@"))
        let hostStart = at.map { $0 + 1 } ?? 0
        var hostEnd = bytes.count
        var port: Slice<UnsafeBufferPointer<UInt8>>?
        let hostPort = bytes[hostStart...]
        let searchFrom = hostPort.first == UInt8(ascii: "[") ? hostPort.firstIndex(of: UInt8(ascii: "]")) : hostStart
        if let searchFrom, let colon = bytes[searchFrom...].lastIndex(of: UInt8(ascii: ":")) {
            hostEnd = colon
            port = bytes[(colon + 1)...]
        }
        var result = String(decoding: bytes[..<hostStart], as: UTF8.self)
        let host = bytes[hostStart..<hostEnd]
        if host.allSatisfy({ $0 < 0x80 }) {
            result +=
                host.contains(where: { $0 >= 0x41 && $0 <= 0x5A })
                ? String(decoding: host.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
                : String(decoding: host, as: UTF8.self)
        } else {
            result += String(decoding: host, as: UTF8.self).lowercased()
        }
        if let port, !port.isEmpty {
            let isNumber = port.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            let digits = port.drop { $0 == UInt8(ascii: "0") }
            let number =
                isNumber
                ? (digits.isEmpty ? "0" : String(decoding: digits, as: UTF8.self))
                : String(decoding: port, as: UTF8.self)
            let defaultPort = scheme == "http" ? "80" : scheme == "https" ? "443" : nil
            if number != defaultPort { result += ":" + number }
        }
        return result
    }
}
