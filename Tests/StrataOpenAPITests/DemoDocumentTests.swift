import Foundation
import HTTPTypes
import OpenAPIRuntime
import Strata
import StrataDemoOpenAPI
import StrataOpenAPI
import Testing

/// openapi/strata-demo.yaml describes what the demo server answers: every operation of the
/// generated client, over `NetworkerTransport`, gets the documented status and a body that
/// decodes as documented.
@Suite struct DemoDocumentTests {
    /// A generated client over a plain networker for `server`.
    static func client(_ baseURL: URL, _ transport: any Transport, middleware: [any Middleware] = []) -> Client {
        Client(
            serverURL: baseURL, transport: NetworkerTransport(Networker(transport: transport, middleware: middleware)))
    }

    @Test func usersAndPhotos() async throws {
        try await withDemoServer { server, transport in
            let client = Self.client(server.baseURL, transport)
            let photo = try await client.getPhoto(path: .init(id: 51)).ok.body.json
            #expect(
                photo
                    == Components.Schemas.Photo(
                        id: 51, albumId: 2, title: "Photo 51", url: "https://img.example/p/51.jpg",
                        thumbnailUrl: "https://img.example/p/51-t.jpg"))
            #expect(try await client.getPhoto(path: .init(id: 5001)).notFound.body.json.error == "no such photo")
            #expect(try await client.searchUsers(query: .init(page: 0)).badRequest.body.json.error.hasPrefix("page"))
            let lastPage = try await client.searchUsers(query: .init(page: 3)).ok.body.json
            #expect(lastPage.page == 3)
            #expect(lastPage.users.map(\.name) == ["Hanna", "Ivan"])

            let avatar = try await client.uploadAvatar(
                path: .init(id: 2),
                body: .multipartForm([
                    .avatar(.init(payload: .init(body: HTTPBody([1, 2, 3, 4, 5])), filename: "bob.png"))
                ]))
            #expect(
                try avatar.ok.body.json
                    == Components.Schemas.AvatarUpload(
                        field: "avatar", filename: "bob.png", bytes: 5, contentType: "application/octet-stream"))
        }
    }

    @Test func accountLoginRegistrationAndMe() async throws {
        try await withDemoServer { server, transport in
            let client = Self.client(server.baseURL, transport)
            let wrong = try await client.logIn(body: .urlEncodedForm(.init(login: "ann", password: "nope")))
            #expect(try wrong.unauthorized.body.json.error == "wrong login or password")
            let token = try await client.logIn(body: .urlEncodedForm(.init(login: "ann", password: "p@ss word")))
                .ok.body.json.token
            #expect(token.hasPrefix("demo-"))

            let anonymous = try await client.getMe().unauthorized
            #expect(anonymous.headers.wwwAuthenticate == #"Bearer realm="strata-demo""#)
            let signedIn = Self.client(
                server.baseURL, transport, middleware: [HeadersMiddleware([.authorization: "Bearer \(token)"])])
            #expect(try await signedIn.getMe().ok.body.json.name == "Ann")

            let yan = Components.Schemas.User(name: "Yan", age: 33, _type: ._1, photos: [])
            let created = try await client.registerUser(body: .json(yan)).created
            #expect(created.headers.location == "/users/7")
            #expect(try created.body.json == yan)
            #expect(try await client.getUser(path: .init(id: 7)).ok.body.json == yan)
            let invalid = Components.Schemas.User(name: "", age: 1, _type: ._1, photos: [])
            #expect(
                try await client.registerUser(body: .json(invalid)).unprocessableContent.body.json.error.isEmpty
                    == false)
        }
    }

    @Test func diagnostics() async throws {
        try await withDemoServer { server, transport in
            let client = Self.client(server.baseURL, transport)
            let headers = try await client.getHeaders().ok.body.json.headers.additionalProperties
            #expect(headers["accept"] == "application/json")
            #expect(try await client.getFlaky().serviceUnavailable.headers.retryAfter == ._0)
            #expect(try await client.getFlaky().serviceUnavailable.body.json.error.hasPrefix("temporarily"))
            #expect(try await client.getFlaky().ok.body.json == Components.Schemas.Flaky(attempt: 3, status: "ok"))

            let broken = await #expect(throws: ClientError.self) { try await client.getBroken() }
            #expect(broken?.operationID == "getBroken")
            #expect(broken?.response?.status == .ok)
            #expect(broken?.underlyingError is DecodingError)
        }
    }

    @Test func feeds() async throws {
        try await withDemoServer { server, transport in
            let client = Self.client(server.baseURL, transport)
            let created = try await client.createFeed().created
            #expect(created.headers.location == "/feeds/1")
            #expect(try created.body.json == Components.Schemas.Feed(id: 1, revision: 1, posts: ["Welcome to feed 1"]))

            let feed = try await client.getFeed(path: .init(id: 1)).ok
            #expect(feed.headers.eTag == #""feed-1-r1""#)
            #expect(feed.headers.cacheControl == .maxAge_equals_0)
            let conditional = Self.client(
                server.baseURL, transport, middleware: [HeadersMiddleware([.ifNoneMatch: feed.headers.eTag])])
            #expect(try await conditional.getFeed(path: .init(id: 1)).notModified.headers.eTag == #""feed-1-r1""#)

            let published = try await client.publishPost(path: .init(id: 1)).ok.body.json
            #expect(published.posts == ["Welcome to feed 1", "Post 2 of feed 1"])
            _ = try await client.startOutage(path: .init(id: 1)).noContent
            #expect(try await client.getFeed(path: .init(id: 1)).serviceUnavailable.headers.retryAfter == ._0)
            _ = try await client.endOutage(path: .init(id: 1)).noContent
            #expect(try await client.getFeed(path: .init(id: 1)).ok.headers.eTag == #""feed-1-r2""#)
            #expect(
                try await client.getFeedStats(path: .init(id: 1)).ok.body.json
                    == Components.Schemas.FeedStats(requests: 4, notModified: 1, failed: 1))
            #expect(try await client.getFeedStats(path: .init(id: 9)).notFound.body.json.error == "no feed with id 9")
        }
    }

    @Test func notificationsAndDownloads() async throws {
        try await withDemoServer { server, transport in
            let client = Self.client(server.baseURL, transport)
            let first = try await client.streamNotifications().ok.body.textEventStream
            var ids: [String] = []
            for try await event in first.asDecodedServerSentEvents() {
                if let id = event.id, event.event == "notice" { ids.append(id) }
            }
            #expect(ids == ["1", "2", "3", "4", "5"])
            _ = try await client.streamNotifications(headers: .init(lastEventID: "12")).noContent

            let resuming = Self.client(
                server.baseURL, transport, middleware: [HeadersMiddleware([.range: "bytes=2097000-"])])
            let partial = try await resuming.downloadFile(path: .init(name: "tour.bin")).partialContent
            #expect(partial.headers.contentRange == "bytes 2097000-2097151/2097152")
            let bytes = try await [UInt8](collecting: partial.body.binary, upTo: 1024)
            #expect(bytes == (2_097_000..<2_097_152).map { UInt8($0 % 251) })
            let pastTheEnd = Self.client(
                server.baseURL, transport, middleware: [HeadersMiddleware([.range: "bytes=3000000-"])])
            _ = try await pastTheEnd.downloadFile(path: .init(name: "tour.bin")).rangeNotSatisfiable
            _ = try await client.downloadFile(path: .init(name: "missing.bin")).notFound
        }
    }

    /// Strata's cache under a generated client: every stored copy of a feed is stale at
    /// once (`max-age=0`), so each `GET` is revalidated, and a `304` reaches the generated
    /// client as the stored `200`.
    @Test func aCachedFeedIsRevalidatedAndServedFromTheCache() async throws {
        try await withDemoServer { server, transport in
            let client = Self.client(
                server.baseURL, transport, middleware: [CacheMiddleware(store: MemoryCacheStore())])
            _ = try await client.createFeed().created
            let first = try await client.getFeed(path: .init(id: 1)).ok
            let second = try await client.getFeed(path: .init(id: 1)).ok
            #expect(try first.body.json == Components.Schemas.Feed(id: 1, revision: 1, posts: ["Welcome to feed 1"]))
            #expect(try second.body.json == first.body.json)
            #expect(second.headers.eTag == #""feed-1-r1""#)
            #expect(
                try await client.getFeedStats(path: .init(id: 1)).ok.body.json
                    == Components.Schemas.FeedStats(requests: 2, notModified: 1, failed: 0))
        }
    }
}
