import Foundation

extension URL {
    /// This URL with the query item `name` set to `value`: the first item of that name
    /// takes the new value where it stands (any later ones go), or the item is appended;
    /// the others are kept as they are. Name and value are escaped as
    /// query parameters are (`URLQueryEscaper`), so any text gives a valid URL.
    /// - Throws: ``URLRouteError/invalidURL(base:path:)`` when `URLComponents` cannot take the URL apart.
    func settingQueryItem(_ name: String, to value: String) throws -> URL {
        let escaper = URLQueryEscaper(allowedASCII: URLQueryEscaper.defaultAllowedASCII, spaceEncoding: .percentEscaped)
        let escapedName = escaper.escape(name)
        let item = escapedName + "=" + escaper.escape(value)
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else {
            throw URLRouteError.invalidURL(base: absoluteString, path: "?" + item)
        }
        func isNamed(_ item: String) -> Bool {
            item.split(separator: "=", maxSplits: 1).first.map(String.init) == escapedName
        }
        var items = (components.percentEncodedQuery ?? "").split(separator: "&").map(String.init)
        if let index = items.firstIndex(where: isNamed) {
            items = items[..<index] + [item] + items[(index + 1)...].filter { !isNamed($0) }
        } else {
            items.append(item)
        }
        components.percentEncodedQuery = items.joined(separator: "&")
        guard let url = components.url else { throw URLRouteError.invalidURL(base: absoluteString, path: "?" + item) }
        return url
    }
}
