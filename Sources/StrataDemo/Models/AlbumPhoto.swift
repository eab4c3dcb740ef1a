import Foundation
import Strata

/// The Endpoint + Networker + Result pattern's `Photo` (renamed here to keep it apart
/// from the layered models' ``Photo``), read by hand from a ``JSON`` value as that
/// pattern does with `[String: Any]`.
public struct AlbumPhoto: Sendable, Equatable {
    /// The photo's id.
    public var id: Int16
    /// The album it belongs to.
    public var albumId: Int16
    /// Its title.
    public var title: String
    /// The full-size image.
    public var url: URL
    /// The thumbnail.
    public var thumbnailUrl: URL

    /// Creates a photo.
    public init(id: Int16, albumId: Int16, title: String, url: URL, thumbnailUrl: URL) {
        self.id = id
        self.albumId = albumId
        self.title = title
        self.url = url
        self.thumbnailUrl = thumbnailUrl
    }

    /// Reads the photo from JSON, as the pattern's `init(with json:)`.
    /// - Throws: ``MappingError`` when a field is missing, of the wrong type or out of range.
    public init(with json: JSON) throws {
        guard let id = json["id"]?.intValue.flatMap(Int16.init(exactly:)),
            let albumId = json["albumId"]?.intValue.flatMap(Int16.init(exactly:)),
            let title = json["title"]?.stringValue,
            let url = json["url"]?.stringValue.flatMap(URL.init(string:)),
            let thumbnailUrl = json["thumbnailUrl"]?.stringValue.flatMap(URL.init(string:))
        else {
            throw MappingError(type: AlbumPhoto.self, description: "expected id, albumId, title, url and thumbnailUrl")
        }
        self.init(id: id, albumId: albumId, title: title, url: url, thumbnailUrl: thumbnailUrl)
    }
}
