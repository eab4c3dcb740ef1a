import Foundation

/// A route in the shape of the `Endpoint` protocol of the protocol-oriented JSON API
/// service layer: a base URL given as a string, declared once for a whole service, a path per case, and `buildURL()`.
///
/// Code written for that layer changes by one word, the protocol it refines; its
/// requirements stay as they were written:
///
/// <!-- doc-examples: skip (declares the module-wide protocol Endpoint; Seed004Tests compiles it in a module of its own) -->
/// ```swift
/// protocol Endpoint: StringServiceRoute {   // was: protocol Endpoint {
///     var baseUrl: String { get }
///     var path: String { get }
///     func buildURL() -> String
/// }
///
/// extension Endpoint {
///     var baseUrl: String { "https://api.example.com/v1" }   // declared once
/// }
///
/// enum UserEndpoint: Endpoint {
///     case user(Int)
///     var path: String {
///         switch self {
///         case .user(let id): "/users/\(id)"
///         }
///     }
/// }
///
/// let user = try await networker.send(RequestDescription(route: UserEndpoint.user(1)), decoding: User.self)
/// ```
///
/// **The name clash.** A module that declares its own `Endpoint` (as that service layer does)
/// shadows Strata's ``Endpoint`` everywhere in that module: declarations of a module win
/// over imported ones, so `Endpoint` there is the app's protocol, and that is what the
/// layer's code expects. Code that sends a `RequestDescription` with `decoding:` never names
/// Strata's type; where it must be named, qualify it with the module: `Strata.Endpoint<User>`
/// (or add `typealias StrataEndpoint<Response> = Strata.Endpoint<Response>` once).
///
/// **Building the URL.** ``URLRouteProvider/url()`` reads ``baseUrl`` with
/// `URL(string:)` and joins ``path`` with `URL? + String`: exactly one slash between the
/// two, characters a URL cannot hold escaped, a query in the path kept. It never traps: a
/// base that `URL(string:)` refuses, or that has no scheme, throws
/// ``URLRouteError/invalidURL(base:path:)``, which a ``Networker`` reports as
/// ``StrataError/Kind/invalidURL``. ``buildURL()`` is the same URL as a string — whenever
/// `url()` succeeds, `buildURL() == url().absoluteString` — and the base and path joined
/// by one slash when it does not, so a log line still says what was meant. A `buildURL()`
/// of your own is yours to print; requests are sent to `url()`.
public protocol StringServiceRoute: URLRouteProvider {
    /// The service's base URL, usually declared once in a protocol extension.
    var baseUrl: String { get }
    /// The path of this route below ``baseUrl``, with or without a leading slash.
    var path: String { get }
    /// The route's URL as a string; by default the string of ``URLRouteProvider/url()``.
    func buildURL() -> String
}

extension StringServiceRoute {
    /// ``baseUrl`` read by `URL(string:)` and joined with ``path`` by `URL? + String`.
    /// - Throws: ``URLRouteError/invalidURL(base:path:)`` with ``baseUrl`` and ``path`` as
    ///   they are, when ``baseUrl`` is not a URL with a scheme or the two cannot be joined
    ///   into a valid URL.
    public func url() throws -> URL {
        do {
            return try URL(string: baseUrl) + path
        } catch {
            // Name the base as it was written, not as `URL(string:)` escaped it.
            throw URLRouteError.invalidURL(base: baseUrl, path: path)
        }
    }

    /// The string of ``url()``; when ``url()`` throws, ``baseUrl`` and ``path`` joined by
    /// exactly one slash, as they are.
    public func buildURL() -> String {
        if let url = try? url() {
            return url.absoluteString
        }
        var base = Substring(baseUrl)
        while base.hasSuffix("/") { base = base.dropLast() }
        let rest = path.drop { $0 == "/" }
        return rest.isEmpty ? String(base) : base + "/" + rest
    }
}
