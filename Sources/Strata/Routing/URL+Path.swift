import Foundation

/// Appends `path` to an optional base URL: `try base + "/user/auth"`.
///
/// - Exactly one slash joins the two, whatever slashes they bring
///   (`https://x.io/` + `/a` and `https://x.io` + `a` both give `https://x.io/a`).
/// - A path already on the base is kept (`https://x.io/v1` + `users` gives
///   `https://x.io/v1/users`), and so is a trailing slash on `path`.
/// - A query in `path` (`users?page=2`) is merged after any query on the base.
/// - Characters that may not appear in a path (spaces, non-ASCII) are
///   percent-escaped; existing `%XX` escapes are kept.
///
/// - Throws: ``URLRouteError/missingBaseURL(path:)`` when `base` is `nil`,
///   ``URLRouteError/invalidURL(base:path:)`` when the result is not a valid URL.
public func + (base: URL?, path: String) throws -> URL {
    guard let base else { throw URLRouteError.missingBaseURL(path: path) }
    guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else {
        throw URLRouteError.invalidURL(base: base.absoluteString, path: path)
    }
    var pathPart = Substring(path)
    var queryPart: Substring?
    if let mark = pathPart.firstIndex(of: "?") {
        queryPart = pathPart[pathPart.index(after: mark)...]
        pathPart = pathPart[..<mark]
    }
    guard let escaped = String(pathPart).addingPercentEncoding(withAllowedCharacters: .strataPathAllowed) else {
        throw URLRouteError.invalidURL(base: base.absoluteString, path: path)
    }
    let trimmedSuffix = escaped.drop(while: { $0 == "/" })
    if !trimmedSuffix.isEmpty || escaped.hasSuffix("/") {
        var basePath = Substring(components.percentEncodedPath)
        while basePath.hasSuffix("/") { basePath = basePath.dropLast() }
        components.percentEncodedPath = basePath + "/" + trimmedSuffix
    }
    if let queryPart, !queryPart.isEmpty {
        let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
        components.percentEncodedQuery = existing + queryPart
    }
    guard let url = components.url, url.scheme != nil else {
        throw URLRouteError.invalidURL(base: base.absoluteString, path: path)
    }
    return url
}

extension CharacterSet {
    /// Characters left as they are in a path: RFC 3986 path characters plus `%`,
    /// so that escapes the caller already made survive.
    static let strataPathAllowed: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.insert("%")
        return set
    }()
}
