/// The users service: profiles, search, photos and avatars.
public enum UsersRoute: DemoPath {
    /// `GET /users/:id`.
    case user(Int)
    /// `GET /users`, with the search in the query.
    case search
    /// `GET /photos/:id`.
    case photo(Int)
    /// `POST /users/:id/avatar`.
    case avatar(userID: Int)

    /// The path of the route.
    public var path: String {
        switch self {
        case .user(let id): "/users/\(id)"
        case .search: "/users"
        case .photo(let id): "/photos/\(id)"
        case .avatar(let userID): "/users/\(userID)/avatar"
        }
    }
}
