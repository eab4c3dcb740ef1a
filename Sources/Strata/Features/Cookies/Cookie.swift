import Foundation

/// A cookie as a ``CookieJar`` keeps it: what a server's `Set-Cookie` field said, read by
/// the storage model of RFC 6265bis (§5.7), with the times the jar keeps for it.
///
/// `Codable`, so that an app can export a jar's cookies and import them again
/// (``CookieJar/allCookies`` and ``CookieJar/add(_:)``).
public struct Cookie: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The `SameSite` attribute, recorded for the app: Strata sends no cross-site requests
    /// of its own, so it does not change which requests carry the cookie.
    public enum SameSite: String, Sendable, Hashable, Codable {
        /// `SameSite=Strict`.
        case strict
        /// `SameSite=Lax`.
        case lax
        /// `SameSite=None`.
        case none
        /// No `SameSite` attribute, or one with another value.
        case unspecified
    }

    /// The cookie's name; empty for a cookie set without one (`Set-Cookie: value`).
    public var name: String
    /// The cookie's value, as the server wrote it (double quotes included).
    public var value: String
    /// The host (``isHostOnly``) or the domain the cookie is sent to, lowercased.
    public var domain: String
    /// Whether the cookie goes to ``domain`` alone (no `Domain` attribute), or to its
    /// subdomains too.
    public var isHostOnly: Bool
    /// The path the cookie is sent under (the request's path starts with it).
    public var path: String
    /// When the cookie expires; `nil` for a session cookie, which lasts as long as the jar.
    public var expires: Date?
    /// Whether the cookie goes only over `https` (and `wss`).
    public var isSecure: Bool
    /// `HttpOnly`: kept for the app to read; every request Strata sends is an HTTP one.
    public var isHTTPOnly: Bool
    /// The `SameSite` attribute.
    public var sameSite: SameSite
    /// When the jar first stored a cookie of this name, domain and path.
    public var created: Date
    /// When a request last carried the cookie (or it was stored).
    public var lastAccessed: Date

    /// Creates a cookie, as an app adds one to a jar (``CookieJar/add(_:)``).
    /// - Parameters:
    ///   - name: the name; empty for a nameless cookie.
    ///   - value: the value.
    ///   - domain: the host (host-only) or the domain; lowercased.
    ///   - isHostOnly: whether only `domain` itself gets the cookie.
    ///   - path: the path it is sent under; `/` by default.
    ///   - expires: when it expires; `nil` for a session cookie.
    ///   - isSecure: whether it goes only over `https`.
    ///   - isHTTPOnly: the `HttpOnly` attribute.
    ///   - sameSite: the `SameSite` attribute.
    ///   - created: when it was created; now by default.
    public init(
        name: String, value: String, domain: String, isHostOnly: Bool = true, path: String = "/",
        expires: Date? = nil, isSecure: Bool = false, isHTTPOnly: Bool = false, sameSite: SameSite = .unspecified,
        created: Date = Date()
    ) {
        self.name = name
        self.value = value
        self.domain = domain.lowercased()
        self.isHostOnly = isHostOnly
        self.path = path
        self.expires = expires
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
        self.created = created
        self.lastAccessed = created
    }

    /// `name=value` as a `Cookie` field carries it (the value alone for a nameless cookie).
    public var pair: String { name.isEmpty ? value : "\(name)=\(value)" }

    /// Whether the cookie has expired at `date`.
    public func isExpired(at date: Date) -> Bool { expires.map { $0 <= date } ?? false }

    /// Whether this cookie and `other` are the same cookie for the jar: the same name,
    /// domain, host-only flag and path (a newer one replaces the older).
    public func isSameCookie(as other: Cookie) -> Bool {
        name == other.name && domain == other.domain && isHostOnly == other.isHostOnly && path == other.path
    }

    /// The name, the domain and path, and the flags; never the value.
    public var description: String {
        var parts = ["Cookie(\(name.isEmpty ? "<nameless>" : name)", "\(isHostOnly ? "" : ".")\(domain)\(path)"]
        if let expires { parts.append("expires \(expires)") }
        if isSecure { parts.append("Secure") }
        if isHTTPOnly { parts.append("HttpOnly") }
        if sameSite != .unspecified { parts.append("SameSite=\(sameSite.rawValue)") }
        return parts.joined(separator: ", ") + ", value redacted)"
    }
}
