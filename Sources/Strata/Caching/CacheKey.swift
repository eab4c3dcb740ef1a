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
        self.init(method: request.method.rawValue, scheme: request.scheme, authority: request.authority, path: request.path)
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
    private static func normalise(authority: String, scheme: String) -> String {
        var userInfo = ""
        var hostPort = Substring(authority)
        if let at = authority.lastIndex(of: "@") {
            userInfo = String(authority[...at])
            hostPort = authority[authority.index(after: at)...]
        }
        var host = hostPort
        var port: Substring?
        let hostEnd = hostPort.hasPrefix("[") ? hostPort.firstIndex(of: "]") : hostPort.startIndex
        if let hostEnd, let colon = hostPort[hostEnd...].lastIndex(of: ":") {
            host = hostPort[..<colon]
            port = hostPort[hostPort.index(after: colon)...]
        }
        var normalisedPort = ""
        if let port, !port.isEmpty {
            let digits = port.drop { $0 == "0" }
            let isNumber = port.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            let number = isNumber ? (digits.isEmpty ? "0" : String(digits)) : String(port)
            let defaultPort = scheme == "http" ? "80" : scheme == "https" ? "443" : nil
            if number != defaultPort { normalisedPort = ":" + number }
        }
        return userInfo + host.lowercased() + normalisedPort
    }
}
