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
        var string = string
        guard let target = string.withUTF8(RequestTarget.init(slicing:)) else { return nil }
        self = target
    }

    /// The slices of a URL string's bytes, scanned as a buffer: through `String.UTF8View`
    /// each index step checks the string's representation again.
    private init?(slicing bytes: UnsafeBufferPointer<UInt8>) {
        let slash = UInt8(ascii: "/")
        let question = UInt8(ascii: "?")
        let hash = UInt8(ascii: "#")
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, colon + 2 < bytes.count,
            bytes[colon + 1] == slash, bytes[colon + 2] == slash
        else { return nil }
        let authorityStart = colon + 3
        let authorityEnd =
            bytes[authorityStart...].firstIndex { $0 == slash || $0 == question || $0 == hash } ?? bytes.count
        var hostStart = authorityStart
        if let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) {
            hostStart = at + 1
        }
        var hostEnd = authorityEnd
        if hostStart < hostEnd, bytes[hostEnd - 1] == UInt8(ascii: ":") {
            hostEnd -= 1  // an empty port is no port
        }
        guard hostStart < hostEnd else { return nil }
        let targetEnd = bytes[authorityEnd...].firstIndex(of: hash) ?? bytes.count
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        if authorityEnd == targetEnd {
            path = "/"
        } else if bytes[authorityEnd] == question {
            path = "/" + text(authorityEnd..<targetEnd)
        } else {
            path = text(authorityEnd..<targetEnd)
        }
        scheme = text(0..<colon)
        authority = text(hostStart..<hostEnd)
    }
}
