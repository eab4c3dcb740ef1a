import Foundation

/// A route that reaches its service through a URL: the route type of every
/// HTTP request in Strata.
///
/// Routes are usually enums, one per service:
///
/// ```swift
/// enum RegistrationRoute: URLRouteProvider {
///     case auth, register, user(String)
///
///     func url() throws -> URL {
///         let base = URL(string: "http://example.com")
///         switch self {
///         case .auth: return try base + "/user/auth"
///         case .register: return try base + "/user/register"
///         case .user(let id): return try base + "/user/\(id)"
///         }
///     }
/// }
/// ```
///
/// Transports that are not URL-based bring their own route type:
/// ``RequestDescription`` is generic over its route.
public protocol URLRouteProvider: Sendable {
    /// The URL of the resource this route names.
    /// - Throws: ``URLRouteError`` (or any error) when the URL cannot be built.
    func url() throws -> URL
}

extension URL: URLRouteProvider {
    /// A URL is a route to itself.
    public func url() throws -> URL { self }
}
