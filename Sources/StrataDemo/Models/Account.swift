/// A login, sent as a form body (`login=ann&password=p%40ss%20word`).
public struct Credentials: Encodable, Sendable, Equatable {
    /// The account name.
    public var login: String
    /// The password.
    public var password: String

    /// Creates credentials.
    public init(login: String, password: String) {
        self.login = login
        self.password = password
    }

    /// The demo server's account.
    public static let demo = Credentials(login: "ann", password: "p@ss word")
}

/// A bearer token issued by `POST /user/auth`: `{"token"}`.
public struct AuthToken: Decodable, Sendable, Equatable {
    /// The token, sent back as `Authorization: Bearer <token>`.
    public let token: String
}
