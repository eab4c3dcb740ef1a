import Foundation

/// Appends `path` to an optional base URL: `try base + "/user/auth"`.
///
/// - Exactly one slash joins the two, whatever slashes they bring
///   (`https://x.io/` + `/a` and `https://x.io` + `a` both give `https://x.io/a`).
/// - A path already on the base is kept (`https://x.io/v1` + `users` gives
///   `https://x.io/v1/users`), and so is a trailing slash on `path`.
/// - A query in `path` (everything after its first `?`: `users?page=2`) is merged
///   after any query on the base.
/// - Any input is escaped into a valid URL rather than trapping: a `%` followed by
///   two hex digits is kept as an escape (`a%2Fb` stays `a%2Fb`), any other `%` becomes
///   `%25` (`100%` gives `100%25`); in the path, characters outside
///   `CharacterSet.urlPathAllowed` (spaces, `#`, `[`, `]`, `;`, control characters,
///   non-ASCII) are percent-escaped as UTF-8 bytes; in the query, characters
///   outside `CharacterSet.urlQueryAllowed` are, while `&`, `=`, `?`, `/` and the other
///   RFC 3986 query characters are kept (`?q=Ann Lee&ids=[1,2]` gives
///   `?q=Ann%20Lee&ids=%5B1,2%5D`). A `#` is escaped too: `path` cannot carry a fragment.
///
/// - Throws: ``URLRouteError/missingBaseURL(path:)`` when `base` is `nil`,
///   ``URLRouteError/invalidURL(base:path:)`` when the result is not a valid URL
///   (for example when `base` has no scheme, or the empty one of `URL(string: ":")`).
public func + (base: URL?, path: String) throws -> URL {
    guard let base else { throw URLRouteError.missingBaseURL(path: path) }
    guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else {
        throw URLRouteError.invalidURL(base: base.absoluteString, path: path)
    }
    var pathPart = Substring(path)
    var queryPart: Substring?
    // Split on the `?` byte, even when a combining mark follows it.
    if let mark = path.utf8.firstIndex(of: UInt8(ascii: "?")) {
        queryPart = path[path.utf8.index(after: mark)...]
        pathPart = path[..<mark]
    }
    let escaped = URLPercentEscaping.escape(pathPart, allowed: URLPercentEscaping.pathAllowed)
    let trimmedSuffix = escaped.drop(while: { $0 == "/" })
    if !trimmedSuffix.isEmpty || escaped.hasSuffix("/") {
        var basePath = Substring(components.percentEncodedPath)
        while basePath.hasSuffix("/") { basePath = basePath.dropLast() }
        components.percentEncodedPath = basePath + "/" + trimmedSuffix
    }
    if let queryPart, !queryPart.isEmpty {
        let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
        components.percentEncodedQuery =
            existing
            + URLPercentEscaping.escape(queryPart, allowed: URLPercentEscaping.queryAllowed)
    }
    guard let url = components.url, url.isHTTPRequestable else {
        throw URLRouteError.invalidURL(base: base.absoluteString, path: path)
    }
    return url
}
