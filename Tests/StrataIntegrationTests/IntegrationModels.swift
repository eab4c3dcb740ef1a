import Foundation
import Strata

// The seed 002 models (see Tests/StrataTests/Seeds for the annotated originals).

enum UserType: Int, Codable, Sendable {
    case owner
    case member
}

struct PhotoEntry: Codable, RawMappable, Sendable {
    typealias Raw = Json
    let id: String
    let ref: String
}

struct UserEntry: Codable, RawMappable, Sendable {
    typealias Raw = Json
    let name: String
    let age: Int
    let type: UserType
    let photos: [PhotoEntry]
}

struct Photo: DTODecodable, Equatable, Sendable {
    let id: String
    let image: String

    static func from(dto: PhotoEntry) throws -> Photo {
        .init(id: dto.id, image: dto.ref)
    }
}

struct User: DTODecodable, Equatable, Sendable {
    let name: String
    let age: Int
    let type: UserType
    let photos: [Photo]

    static func from(dto: UserEntry) throws -> User {
        try .init(name: dto.name, age: dto.age, type: dto.type, photos: .from(dto: dto.photos))
    }
}

/// The seed 003 photo, parsed from JSON by hand as in the seed.
struct SeedPhoto: Equatable, Sendable {
    var id: Int16
    var albumId: Int16
    var title: String
    var url: URL
    var thumbnailUrl: URL

    enum NetworkError: Error { case parse, url }

    init(with json: JSON?) throws {
        guard let id = json?["id"]?.intValue,
            let albumId = json?["albumId"]?.intValue,
            let title = json?["title"]?.stringValue,
            let url = URL(string: json?["url"]?.stringValue ?? ""),
            let thumbnailUrl = URL(string: json?["thumbnailUrl"]?.stringValue ?? "")
        else { throw NetworkError.parse }
        self.id = Int16(id)
        self.albumId = Int16(albumId)
        self.title = title
        self.url = url
        self.thumbnailUrl = thumbnailUrl
    }

    static func single(by id: Int16, with baseUrl: URL) throws -> Endpoint<SeedPhoto> {
        guard let url = URL(string: "photos/\(id)", relativeTo: baseUrl) else { throw NetworkError.url }
        return Endpoint(RequestDescription(route: url), json: { json in try SeedPhoto(with: json) })
    }
}

/// The routes of the test server's echo API.
struct EchoRoute: ServiceRoute {
    let baseURL: URL?
    let path: String
}

/// A route to a URL built elsewhere (a server's URL with a query, say).
struct FixedURLRoute: URLRouteProvider {
    let target: URL
    func url() throws -> URL { target }
}
