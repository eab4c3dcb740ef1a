import Strata

// The application layer: what the app uses, mapped from and to the DTOs.

/// A photo as the app sees it.
public struct Photo: Sendable, Equatable {
    /// The photo's id.
    public let id: String
    /// Where the image is (the DTO's `ref`).
    public let image: String

    /// Creates a photo.
    public init(id: String, image: String) {
        self.id = id
        self.image = image
    }
}

extension Photo: DTOConvertible {
    /// Read from and written as a ``PhotoEntry``.
    public typealias DTO = PhotoEntry

    /// Maps the DTO.
    public static func from(dto: PhotoEntry) throws -> Photo {
        Photo(id: dto.id, image: dto.ref)
    }

    /// Maps back to the DTO.
    public func toDTO() throws -> PhotoEntry {
        PhotoEntry(id: id, ref: image)
    }
}

/// A user as the app sees it.
public struct User: Sendable, Equatable {
    /// The user's name.
    public let name: String
    /// The user's age.
    public let age: Int
    /// Owner or member.
    public let type: UserType
    /// The user's photos.
    public let photos: [Photo]

    /// Creates a user.
    public init(name: String, age: Int, type: UserType, photos: [Photo]) {
        self.name = name
        self.age = age
        self.type = type
        self.photos = photos
    }
}

extension User: DTOConvertible {
    /// Read from and written as a ``UserEntry``.
    public typealias DTO = UserEntry

    /// Maps the DTO; the photos map element by element (`.from(dto: dto.photos)`).
    public static func from(dto: UserEntry) throws -> User {
        try User(name: dto.name, age: dto.age, type: dto.type, photos: .from(dto: dto.photos))
    }

    /// Maps back to the DTO.
    public func toDTO() throws -> UserEntry {
        try UserEntry(name: name, age: age, type: type, photos: photos.toDTO())
    }
}
