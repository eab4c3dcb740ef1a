/// The account service: the layered models' `RegistrationRoute`, plus the signed-in user.
public enum AccountRoute: DemoPath {
    /// `POST /user/auth`.
    case auth
    /// `POST /user/register`.
    case register
    /// `GET /me`.
    case me

    /// The path of the route.
    public var path: String {
        switch self {
        case .auth: "/user/auth"
        case .register: "/user/register"
        case .me: "/me"
        }
    }
}
