import Foundation

extension URL {
    /// Whether an `HTTPRequest` can be made of this URL without trapping: the one check
    /// the routes and the request encoder share.
    ///
    /// `HTTPRequest(url:)` traps on a URL that `URLComponents` cannot read back, or in
    /// which it finds no scheme. `URL.scheme` is not enough: `URL(string: ":a")` has the
    /// scheme `""`, and `URLComponents` finds none.
    var isHTTPRequestable: Bool {
        guard let scheme = absoluteURL.scheme, !scheme.isEmpty,
            let components = URLComponents(url: self, resolvingAgainstBaseURL: true)
        else { return false }
        return components.string != nil && components.rangeOfScheme != nil
    }
}
