// The few words each model prints as in the transcript.

extension UserEntry {
    /// `UserEntry(name: "Ann", type: owner, photos: 2)`.
    var summary: String { "UserEntry(name: \"\(name)\", type: \(type), photos: \(photos.count))" }
}

extension User {
    /// `User(name: "Ann", photos: 2)`.
    var summary: String { "User(name: \"\(name)\", photos: \(photos.count))" }
}

extension AlbumPhoto {
    /// `AlbumPhoto(id: 5, albumId: 1, title: "Photo 5")`.
    var summary: String { "AlbumPhoto(id: \(id), albumId: \(albumId), title: \"\(title)\")" }
}

extension UsersPage {
    /// `UsersPage(page: 1, users: ["Ann", "Dan"])`.
    var summary: String { "UsersPage(page: \(page), users: \(users.map(\.name)))" }
}

extension AuthToken {
    /// `AuthToken(demo-1a2b3c4d…)`: enough to recognise, not to reuse.
    var summary: String { "AuthToken(\(token.prefix(13))…)" }
}

extension AvatarUpload {
    /// `AvatarUpload(field: "avatar", filename: "zoe.png", bytes: 2048, contentType: "image/png")`.
    var summary: String {
        "AvatarUpload(field: \"\(field)\", filename: \"\(filename ?? "")\", bytes: \(bytes), contentType: \"\(contentType ?? "")\")"
    }
}

extension EchoedHeaders {
    /// `EchoedHeaders(user-agent: strata-demo/1.0, x-strata-demo: tour, accept-language: en)`.
    var summary: String {
        let shown = ["user-agent", "x-strata-demo", "accept-language"].compactMap { name in
            headers[name].map { "\(name): \($0)" }
        }
        return "EchoedHeaders(\(shown.joined(separator: ", ")))"
    }
}

extension Feed {
    /// `Feed(revision: 2, posts: 2)`.
    var summary: String { "Feed(revision: \(revision), posts: \(posts.count))" }
}

extension FeedLoads.Load {
    /// `cache (age 0 s, stale) Feed(revision: 1, posts: 1)`.
    var summary: String {
        guard let cache else { return feed.summary }
        let stale = cache.isStale ? ", stale" : ""
        let origin =
            cache.source == .network
            ? "\(cache.source)" : "\(cache.source) (age \(cache.age.components.seconds) s\(stale))"
        return "\(origin) \(feed.summary)"
    }
}
