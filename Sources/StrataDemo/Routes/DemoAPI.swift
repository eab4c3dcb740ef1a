import Foundation
import HTTPTypes
import Strata

/// The demo API's endpoints: each one a request description plus the model its
/// response becomes. Build them with the server's base URL and send them with any
/// ``Networker``.
///
/// ```swift
/// let api = DemoAPI(baseURL: server.baseURL)
/// let user = try await networker.send(api.user(id: 1))   // User, via UserEntry
/// ```
public struct DemoAPI: Sendable {
    /// The server, such as `http://127.0.0.1:54321`.
    public let baseURL: URL

    /// Creates the API for the server at `baseURL`.
    public init(baseURL: URL) {
        self.baseURL = baseURL
    }

    /// A route to `path` on this server.
    public func route<Path: DemoPath>(_ path: Path) -> DemoRoute<Path> {
        DemoRoute(baseURL: baseURL, path)
    }

    /// `GET /users/:id` read into the raw layer only.
    public func userEntry(id: Int) -> Endpoint<UserEntry> {
        Endpoint(RequestDescription(route: route(UsersRoute.user(id))), raw: UserEntry.self)
    }

    /// `GET /users/:id` read as a ``UserEntry`` and mapped to a ``User``.
    public func user(id: Int) -> Endpoint<User> {
        Endpoint(RequestDescription(route: route(UsersRoute.user(id))), model: User.self)
    }

    /// `GET /users?page=…&search=…`: the search goes in the URL query.
    public func searchUsers(_ search: UserSearch) -> Endpoint<UsersPage> {
        Endpoint(
            RequestDescription(route: route(UsersRoute.search), parameters: search, encoding: .urlQuery),
            model: UsersPage.self)
    }

    /// `GET /photos/:id`, parsed by hand from ``JSON`` as in the Endpoint + Networker + Result pattern.
    public func photo(id: Int) -> Endpoint<AlbumPhoto> {
        Endpoint(
            RequestDescription(route: route(UsersRoute.photo(id))),
            json: { json in
                try AlbumPhoto(with: json)
            })
    }

    /// `POST /users/:id/avatar` with a multipart body.
    public func uploadAvatar(userID: Int, form: MultipartFormData) -> Endpoint<AvatarUpload> {
        Endpoint(
            RequestDescription(route: route(UsersRoute.avatar(userID: userID)), method: .post, body: .multipart(form)),
            decoding: AvatarUpload.self)
    }

    /// `POST /user/auth` with the credentials as a form body.
    public func login(_ credentials: Credentials) -> Endpoint<AuthToken> {
        Endpoint(
            RequestDescription(
                route: route(AccountRoute.auth), method: .post, parameters: credentials, encoding: .formURL),
            decoding: AuthToken.self)
    }

    /// `POST /user/register` with the user's DTO as a JSON body; the answer is the created user.
    /// - Throws: ``MappingError`` when the user cannot produce its DTO.
    public func register(_ user: User) throws -> Endpoint<User> {
        Endpoint(
            try RequestDescription(route: route(AccountRoute.register), method: .post, model: user), model: User.self)
    }

    /// `GET /me`: needs `Authorization: Bearer <token>`, which a ``HeadersMiddleware`` adds.
    public func me() -> Endpoint<User> {
        Endpoint(RequestDescription(route: route(AccountRoute.me)), model: User.self)
    }

    /// `GET /headers` with `headers` added to the request itself.
    public func echoHeaders(_ headers: HTTPFields = [:]) -> Endpoint<EchoedHeaders> {
        Endpoint(
            RequestDescription(route: route(DiagnosticsRoute.headers), headers: headers), decoding: EchoedHeaders.self)
    }

    /// `GET /flaky`, read as any JSON.
    public func flaky() -> Endpoint<JSON> {
        Endpoint(RequestDescription(route: route(DiagnosticsRoute.flaky)))
    }

    /// `GET /broken`, which can never become a ``User``.
    public func broken() -> Endpoint<User> {
        Endpoint(RequestDescription(route: route(DiagnosticsRoute.broken)), model: User.self)
    }
}
