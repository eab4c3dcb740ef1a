import Foundation
import Strata

/// A path of the demo API below its base URL; one enum per service, as the layered models
/// recommends (``UsersRoute``, ``AccountRoute``, ``DiagnosticsRoute``).
public protocol DemoPath: Sendable {
    /// The path, such as `/users/1`.
    var path: String { get }
}

/// A route of the demo API: the server's base URL, known only at run time, and one
/// of its paths. A ``ServiceRoute``, so its URL is `try baseURL + path`.
public struct DemoRoute<Path: DemoPath>: ServiceRoute {
    /// The server, such as `http://127.0.0.1:54321`.
    public let baseURL: URL?
    /// Which resource.
    public let endpoint: Path

    /// Creates a route.
    public init(baseURL: URL?, _ endpoint: Path) {
        self.baseURL = baseURL
        self.endpoint = endpoint
    }

    /// The path of ``endpoint``.
    public var path: String { endpoint.path }
}
