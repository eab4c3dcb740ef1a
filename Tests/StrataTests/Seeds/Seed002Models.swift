import Foundation
import Strata

// The seed 002 models, with mechanical modernisation only: `Type` is renamed
// `UserType` (a nested `Type` clashes with the metatype syntax), and
// `User.from(dto:)` returns `User` (the seed's sample says `Photo`, a typo).

enum UserType: Int, Codable {
    case owner
    case member
}

struct PhotoEntry: Codable {
    let id: String
    let ref: String
}

extension PhotoEntry: RawMappable {
    public typealias Raw = Json
}

struct UserEntry: Codable {
    let name: String
    let age: Int
    let type: UserType
    let photos: [PhotoEntry]
}

extension UserEntry: RawMappable {
    public typealias Raw = Json
}

struct Photo: Equatable {
    let id: String
    let image: String
}

extension Photo: DTOConvertible {
    public typealias DTO = PhotoEntry

    static func from(dto: PhotoEntry) throws -> Photo {
        return .init(id: dto.id, image: dto.ref)
    }

    func toDTO() throws -> PhotoEntry {
        PhotoEntry(id: id, ref: image)
    }
}

struct User: Equatable {
    let name: String
    let age: Int
    let type: UserType
    let photos: [Photo]
}

extension User: DTOConvertible {
    public typealias DTO = UserEntry

    static func from(dto: UserEntry) throws -> User {
        return try .init(
            name: dto.name,
            age: dto.age,
            type: dto.type,
            photos: .from(dto: dto.photos))
    }

    func toDTO() throws -> UserEntry {
        try UserEntry(name: name, age: age, type: type, photos: photos.toDTO())
    }
}
