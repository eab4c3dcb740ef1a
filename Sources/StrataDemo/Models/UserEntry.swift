import Strata

// The raw layer, as the layered models write it: `Codable` DTOs named `…Entry`, for
// which `typealias Raw = Json` is the whole mapping.

/// Whether a user owns the account or is a member of it (`type` 0 or 1 on the wire).
public enum UserType: Int, Codable, Sendable, Equatable {
    /// The account's owner.
    case owner
    /// A member.
    case member
}

/// A photo reference as the server sends it: `{"id", "ref"}`.
public struct PhotoEntry: Codable, Sendable, Equatable {
    /// The photo's id, such as `1-2`.
    public let id: String
    /// Where the image is.
    public let ref: String

    /// Creates an entry.
    public init(id: String, ref: String) {
        self.id = id
        self.ref = ref
    }
}

extension PhotoEntry: RawMappable {
    /// The raw representation: JSON.
    public typealias Raw = Json
}

/// A user as the server sends it: `{"name", "age", "type", "photos"}`.
public struct UserEntry: Codable, Sendable, Equatable {
    /// The user's name.
    public let name: String
    /// The user's age.
    public let age: Int
    /// Owner or member.
    public let type: UserType
    /// The user's photos.
    public let photos: [PhotoEntry]

    /// Creates an entry.
    public init(name: String, age: Int, type: UserType, photos: [PhotoEntry]) {
        self.name = name
        self.age = age
        self.type = type
        self.photos = photos
    }
}

extension UserEntry: RawMappable {
    /// The raw representation: JSON.
    public typealias Raw = Json
}
