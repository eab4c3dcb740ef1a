import Foundation

/// A route made of a base URL, declared once for a whole service, and a path
/// per case: the "base + path" route of the layered models of CoreNetKit and NodeKit, as an enum.
///
/// ```swift
/// protocol ExampleAPI: ServiceRoute {}
///
/// extension ExampleAPI {
///     var baseURL: URL? { URL(string: "https://api.example.com/v1") }  // declared once
/// }
///
/// enum UserRoute: ExampleAPI {
///     case profile(id: Int)
///     case search
///
///     var path: String {
///         switch self {
///         case .profile(let id): "/users/\(id)"
///         case .search: "/users"
///         }
///     }
/// }
/// ```
///
/// ``URLRouteProvider/url()`` joins the two with `URL? + String`, so a missing or malformed base
/// becomes a ``URLRouteError`` rather than a crash.
public protocol ServiceRoute: URLRouteProvider {
    /// The service's base URL, usually declared once in a protocol extension.
    var baseURL: URL? { get }
    /// The path of this route below ``baseURL``, with or without a leading slash.
    var path: String { get }
}

extension ServiceRoute {
    /// ``baseURL`` joined with ``path``.
    /// - Throws: ``URLRouteError`` when the URL cannot be built.
    public func url() throws -> URL {
        try baseURL + path
    }
}
