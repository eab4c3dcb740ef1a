import Foundation
import Strata

// The seed 002 route, unchanged but for the missing closing brace.

enum RegistrationRoute {
    case auth
    case register
    case user(String)
}

extension RegistrationRoute: UrlRouteProvider {
    func url() throws -> URL {
        let base = URL(string: "http://example.com")
        switch self {
        case .auth:
            return try base + "/user/auth"
        case .register:
            return try base + "/user/register"
        case .user(let id):
            return try base + "/user/\(id)"
        }
    }
}
