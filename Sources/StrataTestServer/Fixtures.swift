/// Response bodies in the shape of the layered models and the Endpoint + Networker + Result pattern.
public enum Fixtures {
    /// A user of the layered models: `{"name","age","type","photos":[{"id","ref"}]}`.
    public struct UserBody: Codable, Sendable {
        public var name: String
        public var age: Int
        public var type: Int
        public var photos: [PhotoRef]
    }

    /// A photo reference of the layered models.
    public struct PhotoRef: Codable, Sendable {
        public var id: String
        public var ref: String
    }

    /// A photo of the Endpoint + Networker + Result pattern.
    public struct PhotoBody: Codable, Sendable {
        public var id: Int
        public var albumId: Int
        public var title: String
        public var url: String
        public var thumbnailUrl: String
    }

    /// The user with `id`; its name is `User {id}`.
    public static func user(id: String) -> UserBody {
        UserBody(
            name: "User \(id)", age: 30, type: 0,
            photos: [
                PhotoRef(id: "\(id)-1", ref: "https://img.example/\(id)/1.jpg"),
                PhotoRef(id: "\(id)-2", ref: "https://img.example/\(id)/2.jpg"),
            ])
    }

    /// The photo with `id`.
    public static func photo(id: Int) -> PhotoBody {
        PhotoBody(
            id: id, albumId: 1, title: "Photo \(id)",
            url: "https://img.example/p/\(id).jpg", thumbnailUrl: "https://img.example/p/\(id)-t.jpg")
    }
}
