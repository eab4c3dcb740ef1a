#if OpenAPI
    import Foundation
    import HTTPTypes
    import Strata

    /// Where a request goes in both worlds: OpenAPI's splits it into a server's base URL and a
    /// request whose path is relative to it; Strata's request is absolute (scheme, authority,
    /// path).
    struct OpenAPIRequestTarget: Equatable {
        /// `http`, `https`.
        var scheme: String
        /// `host[:port]`, without user information.
        var authority: String
        /// The base URL's path, without a trailing `/` (empty for the server's root).
        var basePath: String

        /// The parts of `baseURL`, or `nil` when it is not `scheme://authority[/path]`.
        init?(baseURL: URL) {
            let string = baseURL.absoluteString
            guard let separator = string.range(of: "://"), separator.lowerBound != string.startIndex else { return nil }
            let rest = string[separator.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            var authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            if authority.hasSuffix(":") { authority = authority.dropLast() }
            guard !authority.isEmpty else { return nil }
            let afterAuthority = rest[authorityEnd...]
            var path = afterAuthority[
                ..<(afterAuthority.firstIndex { $0 == "?" || $0 == "#" } ?? afterAuthority.endIndex)]
            while path.hasSuffix("/") { path = path.dropLast() }
            self.scheme = String(string[..<separator.lowerBound])
            self.authority = String(authority)
            self.basePath = String(path)
        }

        /// The target of an absolute request, its base path empty.
        init?(absolute request: HTTPRequest) {
            guard let scheme = request.scheme, let authority = request.authority, !authority.isEmpty else { return nil }
            self.scheme = scheme
            self.authority = authority
            self.basePath = ""
        }

        /// The base URL: `scheme://authority/basePath`.
        var baseURL: URL? { URL(string: "\(scheme)://\(authority)\(basePath)") }

        /// `request` (its path relative to the base URL) made absolute.
        func absolute(_ request: HTTPRequest) -> HTTPRequest {
            var absolute = request
            absolute.scheme = scheme
            absolute.authority = authority
            let path = request.path ?? ""
            absolute.path = basePath + (path.isEmpty ? (basePath.isEmpty ? "/" : "") : path)
            return absolute
        }

        /// Whether the absolute `request` goes to this base URL: same scheme and authority, and
        /// a path under the base path.
        func contains(_ request: HTTPRequest) -> Bool {
            guard request.scheme == scheme, request.authority == authority else { return false }
            guard !basePath.isEmpty else { return true }
            let path = request.path ?? ""
            guard path.hasPrefix(basePath) else { return false }
            let next = path.dropFirst(basePath.count).first
            return next == nil || next == "/" || next == "?"
        }

        /// The absolute `request` with its path relative to this base URL; see ``contains(_:)``.
        func relative(_ request: HTTPRequest) -> HTTPRequest {
            var relative = request
            relative.scheme = nil
            relative.authority = nil
            let path = String((request.path ?? "/").dropFirst(basePath.count))
            relative.path = path.isEmpty ? "/" : path.first == "?" ? "/" + path : path
            return relative
        }

        /// Splits the absolute `request` into a base URL and a request relative to it: `base`
        /// when the request still goes there, otherwise the request's own origin.
        /// - Throws: ``StrataCore/URLRouteError/invalidURL(base:path:)`` for a request with no
        ///   scheme or authority.
        static func split(
            _ request: HTTPRequest, preferring base: OpenAPIRequestTarget? = nil
        ) throws -> (request: HTTPRequest, baseURL: URL) {
            let target: OpenAPIRequestTarget? =
                if let base, base.contains(request) { base } else { OpenAPIRequestTarget(absolute: request) }
            guard let target, let baseURL = target.baseURL else {
                throw URLRouteError.invalidURL(
                    base: "\(request.scheme ?? "")://\(request.authority ?? "")", path: request.path ?? "")
            }
            return (target.relative(request), baseURL)
        }
    }
#endif
