import Foundation
import HTTPTypes

extension HTTPRequest {
    /// A request for `url`, its pseudo-header fields read straight from the URL's string.
    ///
    /// `HTTPRequest(method:url:headerFields:)` rebuilds the URL through `URLComponents` on
    /// Linux, parsing it a second time, on every request. A URL is already parsed and
    /// valid, so for the shape every HTTP route has (`scheme://authority/path?query`) the
    /// three fields are slices of its string: the scheme; the authority without user
    /// information (and without the `:` of an empty port); the path and query without the
    /// fragment, `/` when empty. Anything else (no `//`, an empty host) is left to
    /// `HTTPRequest(url:)`. `RequestTargetPropertyTests` holds the two to the same result.
    ///
    /// One difference, on purpose: for a URL with a query but no path
    /// (`http://host?q=1`) the path is `/?q=1`; `HTTPRequest(url:)` gives `/q=1` on Linux.
    init(method: Method, resolving url: URL, headerFields: HTTPFields) {
        guard let target = RequestTarget(url.absoluteString) else {
            self.init(method: method, url: url, headerFields: headerFields)
            return
        }
        self.init(method: method, target: target, headerFields: headerFields)
    }

    /// A request for the URL `target` was sliced from.
    init(method: Method, target: RequestTarget, headerFields: HTTPFields) {
        self.init(
            method: method, scheme: target.scheme, authority: target.authority, path: target.path,
            headerFields: headerFields)
    }
}

/// The scheme, authority and path of a request, sliced from an absolute URL string.
struct RequestTarget: Equatable {
    var scheme: String
    var authority: String
    var path: String

    /// Slices `string`, or `nil` when it is not `scheme://authority[/path][?query][#fragment]`
    /// with a non-empty authority.
    init?(_ string: String) {
        let utf8 = string.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), colon != utf8.startIndex else { return nil }
        let afterColon = utf8.index(after: colon)
        guard utf8[afterColon...].starts(with: "//".utf8) else { return nil }
        let authorityStart = utf8.index(afterColon, offsetBy: 2)
        let rest = utf8[authorityStart...]
        let authorityEnd =
            rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? utf8.endIndex
        var hostStart = authorityStart
        if let at = utf8[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) {
            hostStart = utf8.index(after: at)
        }
        var hostEnd = authorityEnd
        if hostStart < hostEnd, utf8[utf8.index(before: hostEnd)] == UInt8(ascii: ":") {
            hostEnd = utf8.index(before: hostEnd)  // an empty port is no port
        }
        guard hostStart < hostEnd else { return nil }
        let targetEnd = utf8[authorityEnd...].firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        let target = Substring(utf8[authorityEnd..<targetEnd])
        scheme = String(Substring(utf8[utf8.startIndex..<colon]))
        authority = String(Substring(utf8[hostStart..<hostEnd]))
        path = target.isEmpty ? "/" : target.first == "?" ? "/" + target : String(target)
    }
}
