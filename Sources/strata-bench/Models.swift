import Foundation
import Strata

// The bodies the benchmark reads: a Codable DTO (decoded directly by the raw variants)
// and an application model mapped from it (`Endpoint(_:model:)`, both model layers).
// The 1 MB photo list uses the layered models of `StrataDemo` (`PhotoEntry`, `Photo`).

/// `GET /json/user/{id}`: `{"name","age","type","photos":[{"id","ref"}]}`. A Codable
/// DTO is also a plain `Decodable`, so the raw variants decode it with `JSONDecoder`.
struct UserEntry: Codable, Sendable {
    struct PhotoEntry: Codable, Sendable {
        var id: String
        var ref: String
    }

    var name: String
    var age: Int
    var type: Int
    var photos: [PhotoEntry]
}

extension UserEntry: RawDecodable {
    typealias Raw = JSON
}

/// The application model read from ``UserEntry``.
struct User: Sendable {
    struct Photo: Sendable {
        var id: String
        var image: URL
    }

    var name: String
    var age: Int
    var isAdmin: Bool
    var photos: [Photo]
}

extension User: DTODecodable {
    typealias DTO = UserEntry

    static func from(dto: UserEntry) throws -> User {
        let photos = try dto.photos.map { entry in
            guard let url = URL(string: entry.ref) else {
                throw MappingError(type: User.self, description: "photo \(entry.id) has no valid URL")
            }
            return Photo(id: entry.id, image: url)
        }
        return User(name: dto.name, age: dto.age, isAdmin: dto.type == 1, photos: photos)
    }
}

/// What `/echo/**` replies (a subset of the server's `EchoReply`), as a Codable DTO;
/// also what the raw variants decode.
struct EchoEntry: Codable, Sendable {
    var method: String
    var path: String
    var body: String
}

extension EchoEntry: RawDecodable {
    typealias Raw = JSON
}

/// The application model read from ``EchoEntry``: the body's bytes decoded from Base64.
struct Echo: Sendable {
    var method: String
    var path: String
    var body: Data
}

extension Echo: DTODecodable {
    typealias DTO = EchoEntry

    static func from(dto: EchoEntry) throws -> Echo {
        guard let body = Data(base64Encoded: dto.body) else {
            throw MappingError(type: Echo.self, description: "body is not Base64")
        }
        return Echo(method: dto.method, path: dto.path, body: body)
    }
}
