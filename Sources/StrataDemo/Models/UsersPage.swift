import Strata

/// One page of a user search as the server sends it: `{"page", "users"}`.
public struct UsersPageEntry: Codable, Sendable, Equatable {
    /// The page number, from 1.
    public let page: Int
    /// The users on this page.
    public let users: [UserEntry]
}

extension UsersPageEntry: RawDecodable {
    /// The raw representation: JSON.
    public typealias Raw = Json
}

/// One page of a user search as the app sees it.
public struct UsersPage: Sendable, Equatable {
    /// The page number, from 1.
    public let page: Int
    /// The users on this page.
    public let users: [User]
}

extension UsersPage: DTODecodable {
    /// Read from a ``UsersPageEntry``.
    public typealias DTO = UsersPageEntry

    /// Maps the DTO, users included.
    public static func from(dto: UsersPageEntry) throws -> UsersPage {
        try UsersPage(page: dto.page, users: .from(dto: dto.users))
    }
}

/// The query of a user search, sent with `.urlQuery`: `?page=1&search=an`.
public struct UserSearch: Encodable, Sendable, Equatable {
    /// Part of a name, matched ignoring case.
    public var search: String
    /// The page, from 1.
    public var page: Int

    /// Creates a search.
    public init(search: String, page: Int = 1) {
        self.search = search
        self.page = page
    }
}
