import Foundation

/// The cookies of a jar and the rules of RFC 6265bis that decide them: what a `Set-Cookie`
/// field stores, replaces or deletes (§5.7), which cookies a request carries and in which
/// order (§5.8.3), and which are evicted when there are too many (§5.7, step 23). A value:
/// ``MemoryCookieJar`` keeps one behind a lock, and a persistent jar can keep one too.
public struct CookieStorage: Sendable, Hashable, Codable {
    /// The most cookies kept for one domain, and in all.
    public struct Limits: Sendable, Hashable, Codable {
        /// The most cookies for one domain (host-only cookies count for their host).
        public var perDomain: Int
        /// The most cookies in all.
        public var total: Int

        /// Limits; by default 180 per domain and 3,000 in all, as browsers keep.
        public init(perDomain: Int = 180, total: Int = 3000) {
            self.perDomain = max(1, perDomain)
            self.total = max(1, total)
        }
    }

    /// The longest a cookie may live from when it is stored: 400 days (§5.6.1, §5.6.2).
    public static let maxLifetime: TimeInterval = 400 * 24 * 60 * 60

    /// The cookies, in the order they were first stored.
    public private(set) var cookies: [Cookie] = []
    /// The limits eviction keeps to.
    public var limits: Limits

    /// An empty storage.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    // MARK: Receiving

    /// Reads a `Set-Cookie` field that came with the response to `url`, at `now`, and
    /// stores, replaces or deletes what it says; a field the RFC says to ignore changes
    /// nothing.
    /// - Returns: whether the storage changed.
    @discardableResult
    public mutating func receive(_ field: String, from url: URL, at now: Date) -> Bool {
        guard let setCookie = SetCookie(field), let cookie = Self.cookie(from: setCookie, url: url, now: now) else {
            return false
        }
        return store(cookie, fromSecureOrigin: Self.isSecure(url), at: now)
    }

    /// Adds `cookie` as an app adds one: it replaces a cookie of the same name, domain and
    /// path, and an expired one deletes it.
    /// - Returns: whether the storage changed.
    @discardableResult
    public mutating func add(_ cookie: Cookie, at now: Date) -> Bool {
        store(cookie, fromSecureOrigin: true, at: now)
    }

    /// Removes every cookie `shouldRemove` picks.
    public mutating func removeAll(where shouldRemove: (Cookie) -> Bool) {
        cookies.removeAll(where: shouldRemove)
    }

    /// The cookie a parsed field makes for `url` (§5.7, steps 1 to 19), or `nil` when the
    /// RFC says to ignore it.
    static func cookie(from field: SetCookie, url: URL, now: Date) -> Cookie? {
        guard let host = url.host.map(HostPattern.normalized), !host.isEmpty else { return nil }
        let isSecureOrigin = isSecure(url)
        // Expiry: Max-Age wins over Expires; either is capped at 400 days.
        var expires: Date?
        if let maxAge = field.maxAge {
            expires = maxAge <= 0 ? Date.distantPast : now.addingTimeInterval(min(Double(maxAge), maxLifetime))
        } else if let date = field.expires {
            expires = min(date, now.addingTimeInterval(maxLifetime))
        }
        // Domain: a host-only cookie without one; with one, the host must be in it. A public
        // suffix is refused, unless it is the host itself (then the cookie is host-only).
        var domain = host
        var isHostOnly = true
        if let attribute = field.domain {
            if HostName.isPublicSuffix(attribute) {
                guard attribute == host else { return nil }
            } else {
                guard HostName.domainMatches(host, attribute) else { return nil }
                domain = attribute
                isHostOnly = false
            }
        }
        if field.isSecure && !isSecureOrigin { return nil }  // only a secure origin sets Secure
        // Prefixes (case-insensitive): `__Secure-` needs Secure; `__Host-` also a host-only
        // cookie on `/`. A nameless cookie may not smuggle one in its value.
        let prefixed = field.name.isEmpty ? field.value : field.name
        let lowered = prefixed.lowercased()
        if lowered.hasPrefix("__secure-") || lowered.hasPrefix("__host-") {
            guard !field.name.isEmpty, field.isSecure else { return nil }
            if lowered.hasPrefix("__host-") {
                guard field.domain == nil, field.path == "/" else { return nil }
            }
        }
        return Cookie(
            name: field.name, value: field.value, domain: domain, isHostOnly: isHostOnly,
            path: field.path ?? defaultPath(of: url), expires: expires, isSecure: field.isSecure,
            isHTTPOnly: field.isHTTPOnly, sameSite: field.sameSite, created: now)
    }

    /// Stores `cookie` (§5.7, steps 20 to 23).
    private mutating func store(_ cookie: Cookie, fromSecureOrigin: Bool, at now: Date) -> Bool {
        // An insecure origin may not shadow a Secure cookie of the same name on its domain.
        if !cookie.isSecure && !fromSecureOrigin
            && cookies.contains(where: {
                $0.isSecure && $0.name == cookie.name
                    && (HostName.domainMatches($0.domain, cookie.domain)
                        || HostName.domainMatches(cookie.domain, $0.domain))
                    && Self.pathMatches(cookie.path, $0.path)
            })
        {
            return false
        }
        var cookie = cookie
        let existing = cookies.firstIndex(where: { $0.isSameCookie(as: cookie) })
        if let existing {
            cookie.created = cookies[existing].created
            cookies.remove(at: existing)
        }
        guard !cookie.isExpired(at: now) else { return existing != nil }  // a deletion
        cookie.lastAccessed = now
        cookies.append(cookie)
        evict(keeping: cookie, at: now)
        return true
    }

    /// Removes expired cookies, then the least recently used ones of the domain or of the
    /// whole jar until both limits hold; the cookie just stored stays.
    private mutating func evict(keeping kept: Cookie, at now: Date) {
        cookies.removeAll { $0.isExpired(at: now) }
        func dropLeastRecentlyUsed(among indices: [Int], over limit: Int) {
            guard indices.count > limit else { return }
            let candidates = indices.filter { !cookies[$0].isSameCookie(as: kept) }
                .sorted { cookies[$0].lastAccessed < cookies[$1].lastAccessed }
            let doomed = Set(candidates.prefix(indices.count - limit))
            cookies = cookies.enumerated().filter { !doomed.contains($0.offset) }.map(\.element)
        }
        dropLeastRecentlyUsed(
            among: cookies.indices.filter { cookies[$0].domain == kept.domain }, over: limits.perDomain)
        dropLeastRecentlyUsed(among: Array(cookies.indices), over: limits.total)
    }

    // MARK: Sending

    /// The cookies a request to `url` carries at `now`, in the order of its `Cookie`
    /// field: longer paths first, then the earlier created (§5.8.3). Marks them used.
    public mutating func cookies(for url: URL, at now: Date) -> [Cookie] {
        cookies.removeAll { $0.isExpired(at: now) }
        guard let host = url.host.map(HostPattern.normalized), !host.isEmpty else { return [] }
        let path = Self.path(of: url)
        let secure = Self.isSecure(url)
        var matching: [Int] = []
        for (index, cookie) in cookies.enumerated() {
            let hostMatches = cookie.isHostOnly ? host == cookie.domain : HostName.domainMatches(host, cookie.domain)
            guard hostMatches, Self.pathMatches(path, cookie.path), secure || !cookie.isSecure else { continue }
            matching.append(index)
            cookies[index].lastAccessed = now
        }
        // Longer paths first, then the earlier created, then the earlier stored.
        let sorted = matching.sorted { lhs, rhs in
            let (left, right) = (cookies[lhs], cookies[rhs])
            if left.path.utf8.count != right.path.utf8.count { return left.path.utf8.count > right.path.utf8.count }
            return left.created != right.created ? left.created < right.created : lhs < rhs
        }
        return sorted.map { cookies[$0] }
    }

    /// The `Cookie` field for `cookies`: their `name=value` pairs joined by `; `; `nil`
    /// for none.
    public static func headerValue(for cookies: [Cookie]) -> String? {
        cookies.isEmpty ? nil : cookies.map(\.pair).joined(separator: "; ")
    }

    // MARK: Rules

    /// Whether a request path is under a cookie's path (§5.1.4).
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.utf8.count == cookiePath.utf8.count || cookiePath.hasSuffix("/")
            || requestPath.utf8.dropFirst(cookiePath.utf8.count).first == UInt8(ascii: "/")
    }

    /// The path a cookie without a `Path` gets: the request's path up to its last `/`
    /// (§5.1.4).
    static func defaultPath(of url: URL) -> String {
        let path = Self.path(of: url)
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    /// The path of `url` as its request line has it (percent-encoded, a final `/` kept), `/`
    /// when empty.
    static func path(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }

    /// Whether `url`'s scheme is a secure one (`https`, `wss`).
    static func isSecure(_ url: URL) -> Bool {
        ["https", "wss"].contains(url.scheme?.lowercased() ?? "")
    }
}

/// Host names as cookies compare them (normalised as trust policies normalise them,
/// `HostPattern.normalized`).
enum HostName {
    /// Whether `host` is `domain` or one of its subdomains (§5.1.3); an address matches only
    /// itself.
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        host == domain || (host.hasSuffix("." + domain) && !isAddress(host))
    }

    /// Whether `host` is an IPv4 or IPv6 address.
    static func isAddress(_ host: String) -> Bool {
        host.contains(":") || (host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." })
    }

    /// Whether a `Domain` attribute names a public suffix, under which any site could set
    /// cookies for every other. Strata carries no public suffix list: it refuses a single
    /// label (`com`, `local`), which covers top-level domains but not suffixes such as
    /// `co.uk`.
    static func isPublicSuffix(_ domain: String) -> Bool {
        !domain.contains(".")
    }
}
