import Foundation
import Strata

// The seed 003 model and endpoint. Modernised: `[String: Any]` becomes `JSON`,
// `Endpoint(url:parse:)` becomes an `Endpoint` over a `RequestDescription` with a
// JSON parse closure, and the photo is namespaced to keep it apart from seed 002's.

enum NetworkError: Error {
    case parse
    case url
}

enum Seed003 {
    public struct Photo: Equatable, Sendable {
        var id: Int16
        var albumId: Int16
        var title: String
        var url: URL
        var thumbnailUrl: URL
    }
}

extension Seed003.Photo {
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
}

extension Seed003.Photo {
    static func single(by id: Int16, with baseUrl: URL) throws -> Endpoint<Seed003.Photo> {
        guard let url = URL(string: "photos/\(id)", relativeTo: baseUrl) else {
            throw NetworkError.url
        }

        return Endpoint(
            RequestDescription(route: url),
            json: { json in
                try Seed003.Photo(with: json)
            })
    }
}
