import Foundation
import HTTPTypes

/// The rules of RFC 9111 for a private cache, as pure functions of requests, responses
/// and the time: what may be stored, whether a stored response may be used, how it is
/// revalidated and what an unsafe request invalidates. ``CacheMiddleware`` does the I/O
/// around them.
enum CacheRules {
    /// What a stored response may be used for, at one moment, for one request.
    enum Use: Equatable {
        /// Fresh (or stale within the request's `max-stale`): serve it.
        case serve(isStale: Bool)
        /// Stale within `stale-while-revalidate`: serve it and revalidate in the background.
        case serveWhileRevalidating
        /// Stale, `no-cache`, or refused by the request's directives: revalidate first.
        case revalidate
    }

    /// Whether the response to `request` may be stored (RFC 9111 §3, §3.5):
    /// - a `GET` with a final status other than `304`, `206` only when `partial`;
    /// - no `no-store` in the request or the response, and not `Vary: *`;
    /// - explicit freshness (`max-age`, `Expires`), `public` or `private`, or a status
    ///   that is heuristically cacheable (a response with no freshness is stored stale,
    ///   for revalidation and offline use);
    /// - a request with `Authorization` only when the response says `public`,
    ///   `s-maxage` or `must-revalidate`. RFC 9111 §3.5 asks this of shared caches; a
    ///   Strata client may serve several users (a server calling an upstream for each of
    ///   its users), so this cache follows it always.
    static func isStorable(_ request: HTTPRequest, _ response: HTTPResponse, partial: Bool = false) -> Bool {
        let status = response.status.code
        guard request.method == .get, status >= 200, (status == 206) == partial, status != 304 else { return false }
        let requestDirectives = CacheControl(request.headerFields)
        let directives = CacheControl(response.headerFields)
        guard !requestDirectives.noStore, !directives.noStore, variedFields(of: request, for: response) != nil else {
            return false
        }
        if request.headerFields[.authorization] != nil,
            !(directives.isPublic || directives.sharedMaxAge != nil || directives.mustRevalidate)
        {
            return false
        }
        return directives.maxAge != nil || response.headerFields[.expires] != nil || directives.isPublic
            || directives.isPrivate || CachedResponse.heuristicallyCacheable.contains(status)
    }

    /// The head to store: without the hop-by-hop fields and those `Connection` names
    /// (RFC 9111 §3.1).
    static func storedHead(_ response: HTTPResponse) -> HTTPResponse {
        var head = response
        let named = response.headerFields[values: .connection].flatMap { $0.split(separator: ",") }
            .compactMap { HTTPField.Name($0.trimmingOWS()) }
        for name in hopByHop + named {
            head.headerFields[name] = nil
        }
        return head
    }

    /// The secondary key of `request` for a response with `response`'s `Vary`; `nil`
    /// for `Vary: *`, which no request matches.
    static func variedFields(of request: HTTPRequest, for response: HTTPResponse) -> [String: String]? {
        variedFields(of: request, varying: CachingFields.varyNames(response.headerFields))
    }

    /// The secondary key of `request` for the lowercased field names a `Vary` lists;
    /// `nil` when one is `*`.
    private static func variedFields(of request: HTTPRequest, varying names: [String]) -> [String: String]? {
        var fields: [String: String] = [:]
        for name in names {
            guard name != "*" else { return nil }
            fields[name] = HTTPField.Name(name).map { fieldValue(request.headerFields, $0) } ?? ""
        }
        return fields
    }

    /// Whether `stored` answers `request`: its `Vary` is not `*` and each field it names
    /// has the same value in `request` as in the request it answered (RFC 9111 §4.1).
    static func matches(_ stored: CachedResponse, _ request: HTTPRequest) -> Bool {
        variedFields(of: request, varying: stored.fields.varyNames) == stored.variedFields
    }

    /// What `stored` may be used for at `now` for a request with `requestDirectives`
    /// (RFC 9111 §4.2, §5.2.1; RFC 5861 §3).
    static func use(of stored: CachedResponse, for requestDirectives: CacheControl, at now: Date, heuristic: Bool)
        -> Use
    {
        let directives = stored.cacheControl
        if directives.noCache || requestDirectives.noCache { return .revalidate }
        let lifetime = stored.freshnessLifetime(heuristic: heuristic)
        let age = stored.currentAge(at: now)
        if let maxAge = requestDirectives.maxAge, age > maxAge { return .revalidate }
        if let minFresh = requestDirectives.minFresh, lifetime - age < minFresh { return .revalidate }
        if lifetime > age { return .serve(isStale: false) }
        guard !directives.mustRevalidate else { return .revalidate }
        let staleness = age - lifetime
        if let maxStale = requestDirectives.maxStale, staleness <= maxStale { return .serve(isStale: true) }
        if let window = directives.staleWhileRevalidate, staleness <= window { return .serveWhileRevalidating }
        return .revalidate
    }

    /// Whether `stored` may be served when its revalidation failed (a transport error or
    /// a 5xx) at `now`: within the `stale-if-error` of the response or the request, and
    /// never with `must-revalidate` or `no-cache` (RFC 5861 §4).
    static func allowsStaleIfError(
        _ stored: CachedResponse, for requestDirectives: CacheControl, at now: Date, heuristic: Bool
    ) -> Bool {
        let directives = stored.cacheControl
        guard !directives.mustRevalidate, !directives.noCache,
            let window = requestDirectives.staleIfError ?? directives.staleIfError
        else { return false }
        return stored.currentAge(at: now) - stored.freshnessLifetime(heuristic: heuristic) <= window
    }

    /// `request` made conditional on `stored`'s validators — `ETag` as `If-None-Match`,
    /// `Last-Modified` as `If-Modified-Since` (RFC 9111 §4.3.1) — or `nil` when it has
    /// neither.
    static func conditional(_ request: HTTPRequest, on stored: CachedResponse) -> HTTPRequest? {
        let etag = stored.head.headerFields[.eTag]
        let lastModified = stored.head.headerFields[.lastModified]
        guard etag != nil || lastModified != nil else { return nil }
        var request = request
        if let etag { request.headerFields[.ifNoneMatch] = etag }
        if let lastModified { request.headerFields[.ifModifiedSince] = lastModified }
        return request
    }

    /// `stored` updated by a `304` for its revalidation (RFC 9111 §4.3.4, §3.2): each
    /// field of the `304` replaces the stored fields of its name, except
    /// `Content-Length` and the hop-by-hop fields; the times become the revalidation's.
    /// `nil` when the `304` names a different `ETag`: it is not about this response.
    static func revalidated(
        _ stored: CachedResponse,
        by notModified: HTTPResponse,
        requestTime: Date,
        responseTime: Date
    ) -> CachedResponse? {
        if let etag = notModified.headerFields[.eTag], let storedTag = stored.head.headerFields[.eTag],
            weakTag(etag) != weakTag(storedTag)
        {
            return nil
        }
        return merged(stored, with: notModified, requestTime: requestTime, responseTime: responseTime)
    }

    /// `stored` updated by a `200` to a `HEAD` of its URI (RFC 9111 §4.3.5): merged as a
    /// `304` would be when the validators match (the same `ETag`, or without one on
    /// either side the same `Last-Modified`) and a `Content-Length` of the `HEAD`
    /// response matches the stored body; `nil` when they do not, and the stored response
    /// no longer describes the resource.
    static func freshened(
        _ stored: CachedResponse,
        byHead head: HTTPResponse,
        requestTime: Date,
        responseTime: Date
    ) -> CachedResponse? {
        let fields = head.headerFields
        let storedFields = stored.head.headerFields
        let validatorsMatch: Bool
        if fields[.eTag] != nil || storedFields[.eTag] != nil {
            validatorsMatch = fields[.eTag]?.trimmingOWS() == storedFields[.eTag]?.trimmingOWS()
        } else {
            validatorsMatch = fields[.lastModified] != nil && fields[.lastModified] == storedFields[.lastModified]
        }
        let length = fields[.contentLength]?.trimmingOWS()
        guard validatorsMatch, length == nil || length == String(stored.body.count) else { return nil }
        return merged(stored, with: head, requestTime: requestTime, responseTime: responseTime)
    }

    /// `stored` with the end-to-end fields of `response` (but `Content-Length`) in place
    /// of its own fields of those names (RFC 9111 §3.2), and the new times.
    private static func merged(
        _ stored: CachedResponse,
        with response: HTTPResponse,
        requestTime: Date,
        responseTime: Date
    ) -> CachedResponse {
        var updated = stored
        let incoming = storedHead(response).headerFields
        let names = Set(incoming.map(\.name)).subtracting([.contentLength])
        for name in names {
            updated.head.headerFields[values: name] = incoming[values: name]
        }
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }

    /// The keys a successful unsafe `request` invalidates (RFC 9111 §4.4): its target
    /// and the same-origin `Location` and `Content-Location` of `response`, as `GET`
    /// keys, each with its partial responses' key. Empty for a safe method or a status other than 2xx and 3xx.
    static func invalidatedKeys(_ request: HTTPRequest, _ response: HTTPResponse) -> [CacheKey] {
        guard !safeMethods.contains(request.method), (200..<400).contains(response.status.code),
            let target = CacheKey(request)?.forGet
        else { return [] }
        var keys = [target]
        for location in [response.headerFields[.location], response.headerFields[.contentLocation]] {
            guard let location, let key = resolve(location, against: request), key.origin == target.origin else {
                continue
            }
            keys.append(key)
        }
        return keys.flatMap { [$0, $0.forPartial] }
    }

    /// Methods that never change the resource (RFC 9110 §9.2.1).
    static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]

    private static let hopByHop: [HTTPField.Name] =
        [
            .connection, .transferEncoding, .te, .upgrade, .proxyAuthenticate, .proxyAuthorization,
        ] + [HTTPField.Name("Keep-Alive"), HTTPField.Name("Proxy-Connection")].compactMap { $0 }

    /// The values of the fields named `name`, each trimmed, joined with `, `.
    private static func fieldValue(_ fields: HTTPFields, _ name: HTTPField.Name) -> String {
        fields[values: name].map { $0.trimmingOWS() }.joined(separator: ", ")
    }

    /// An entity tag without its weakness prefix (RFC 9110 §8.8.3.2's weak comparison).
    private static func weakTag(_ tag: String) -> String {
        let tag = tag.trimmingOWS()
        return tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    }

    /// The `GET` key of a `Location` or `Content-Location`, absolute or relative.
    private static func resolve(_ location: String, against request: HTTPRequest) -> CacheKey? {
        guard let base = request.url, let target = URL(string: location, relativeTo: base)?.absoluteURL,
            let components = URLComponents(url: target, resolvingAgainstBaseURL: true), let host = components.host
        else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let authority = bracketed + (components.port.map { ":\($0)" } ?? "")
        let path = components.percentEncodedPath + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
        return CacheKey(method: "GET", scheme: components.scheme, authority: authority, path: path)
    }
}
