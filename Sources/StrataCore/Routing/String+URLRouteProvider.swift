import Foundation

/// A string is a route to the absolute URL it spells, for quick calls and for code coming
/// from Alamofire (`AF.request("https://…")`):
///
/// ```swift
/// let request = RequestDescription(route: "https://api.example.com/users", parameters: ["page": 2])
/// ```
///
/// The string is read by `URL(string:)` when the request is encoded, not when it is
/// written: one that is not an absolute URL with a scheme and a host (`"/users"`,
/// `"api.example.com"`, `"http://"`, `"https:///path"`) throws
/// ``URLRouteError/invalidURL(base:path:)``, which a ``Networker`` reports as
/// ``StrataError/Kind/invalidURL``; it never traps. Characters a URL cannot hold (a space,
/// a lone `%`) are escaped or refused as `URL(string:)` decides: swift-foundation (Linux,
/// and Apple platforms since macOS 14 and iOS 17) escapes them, `"…/a b"` becoming
/// `"…/a%20b"`. To build a URL from pieces, `URL? + String` escapes them everywhere.
extension String: URLRouteProvider {
    /// The absolute URL this string spells.
    /// - Throws: ``URLRouteError/invalidURL(base:path:)`` when the string is not an
    ///   absolute URL with a scheme and a host that an HTTP request can be made of.
    public func url() throws -> URL {
        guard let url = URL(string: self), url.isHTTPRequestable,
            let host = url.host, !host.isEmpty
        else {
            throw URLRouteError.invalidURL(base: self, path: "")
        }
        return url
    }
}
