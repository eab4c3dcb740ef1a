// The JSON shapes the demo API reads and writes: those of the layered models and of the
// Endpoint + Networker + Result pattern.

/// A user of the layered models: `{"name","age","type","photos":[{"id","ref"}]}`; `type` is 0 for
/// an owner, 1 for a member. (`package`: the gRPC demo serves the same users.)
package struct UserPayload: Codable, Sendable {
    package var name: String
    package var age: Int
    package var type: Int
    package var photos: [PhotoRefPayload]
}

/// A photo reference of the layered models.
package struct PhotoRefPayload: Codable, Sendable {
    package var id: String
    package var ref: String
}

/// A photo of the Endpoint + Networker + Result pattern.
struct PhotoPayload: Codable, Sendable {
    var id: Int
    var albumId: Int
    var title: String
    var url: String
    var thumbnailUrl: String
}

/// One page of a user search.
struct UsersPagePayload: Codable, Sendable {
    var page: Int
    var users: [UserPayload]
}

/// The form fields `POST /user/auth` expects.
struct CredentialsPayload: Codable, Sendable {
    var login: String
    var password: String
}

/// A bearer token issued by `POST /user/auth`.
struct TokenPayload: Codable, Sendable {
    var token: String
}

/// What `POST /users/:id/avatar` made of the uploaded file part.
struct AvatarPayload: Codable, Sendable {
    var field: String
    var filename: String?
    var bytes: Int
    var contentType: String?
}

/// The request header fields `GET /headers` saw, by lowercased name.
struct HeadersPayload: Codable, Sendable {
    var headers: [String: String]
}

/// The answer of `GET /flaky` once it stops failing.
struct FlakyPayload: Codable, Sendable {
    var attempt: Int
    var status: String
}

/// The answer of `PUT /flaky/:name` once it stops failing: the call's number and the
/// size of the body it received.
struct FlakyUploadPayload: Codable, Sendable {
    var attempt: Int
    var bytes: Int
}

/// How many `PUT /flaky/:name` calls a name received.
struct FlakyCallsPayload: Codable, Sendable {
    var calls: Int
}

/// The body of every error response.
struct ErrorPayload: Codable, Sendable {
    var error: String
}

/// A feed: its posts, oldest first, and its revision, which a new post increments.
struct FeedPayload: Codable, Sendable, Equatable {
    var id: Int
    var revision: Int
    var posts: [String]
}

/// What the `GET`s of one feed got: all of them, the `304`s and the `503`s.
struct FeedStatsPayload: Codable, Sendable, Equatable {
    var requests: Int
    var notModified: Int
    var failed: Int
}

/// Where the demo's resumable uploads go: `GET /upload-host`.
struct UploadHostPayload: Codable, Sendable {
    var origin: String
}
