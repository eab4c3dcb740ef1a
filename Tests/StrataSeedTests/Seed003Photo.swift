import Foundation
import Strata

// Seed 003's code as its document writes it, in a module of its own (so that `Photo` and
// `NetworkError` are the seed's). The only additions: `Sendable`-free as written, the
// `NetworkError` the document uses without showing, and nothing else.

enum NetworkError: Error {
    case parse
    case url
}

// ---- verbatim from the seed ----

public struct Photo {

    var id: Int16
    var albumId: Int16
    var title: String
    var url: URL
    var thumbnailUrl: URL
}

extension Photo {

    init(with json: [String: Any]?) throws {

        guard let id = json?["id"] as? Int,
            let albumId = json?["albumId"] as? Int,
            let title = json?["title"] as? String,
            let url = URL(string: json?["url"] as? String ?? ""),
            let thumbnailUrl = URL(string: json?["thumbnailUrl"] as? String ?? "")
        else { throw NetworkError.parse }

        self.id = Int16(id)
        self.albumId = Int16(albumId)
        self.title = title
        self.url = url
        self.thumbnailUrl = thumbnailUrl
    }
}

extension Photo {

    static func single(by id: Int16, with baseUrl: URL) throws -> Endpoint<Photo> {

        guard let url = URL(string: "photos/\(id)", relativeTo: baseUrl) else {
            throw NetworkError.url
        }

        return Endpoint(
            url: url,
            parse: { json in

                do { return .success(try Photo(with: json as? [String: Any])) } catch let error {
                    return .failure(error)
                }
            })
    }
}

// ---- end of the seed's code ----
