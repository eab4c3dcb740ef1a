import Foundation
import Hummingbird
import StrataTestServer

/// The demo API. JSON in and out; errors are `{"error": "…"}` with a 4xx or 5xx status.
///
/// | route | what it does |
/// |---|---|
/// | `GET /users/:id` | a user `{"name","age","type","photos":[{"id","ref"}]}`; 404 when unknown |
/// | `GET /users?search=&page=` | `{"page":N,"users":[…]}`: users whose name contains `search`, two a page |
/// | `GET /photos/:id` | a photo `{"id","albumId","title","url","thumbnailUrl"}`, ids 1–5000 |
/// | `POST /user/auth` | form body `login`, `password` → `{"token"}`; 401 when wrong, 400 unless a form body. The demo account is `ann` / `p@ss word` |
/// | `POST /user/register` | a JSON user → 201 with the user and its `Location` |
/// | `POST /users/:id/avatar` | a multipart upload → `{"field","filename","bytes","contentType"}` of its file part |
/// | `GET /me` | the user behind `Authorization: Bearer <token>`; 401 without a valid token |
/// | `GET /headers` | `{"headers":{…}}`: the request's header fields, by lowercased name |
/// | `GET /flaky` | 503 for the first two calls to a server, then `{"attempt","status"}` |
/// | `PUT /flaky/:name` | reads the body; 503 for the first two calls for `name`, then `{"attempt","bytes"}` |
/// | `GET /flaky/:name` | `{"calls"}`: the `PUT /flaky/:name` calls for `name` so far |
/// | `GET /broken` | 200 with a truncated, malformed JSON body |
/// | `POST /feeds`, `GET /feeds/:id`, … | cacheable feeds that can change or fail on demand; see `FeedRoutes` |
/// | `GET /chat` | a chat completion streamed as server-sent events, a token an event, then `[DONE]` |
/// | `GET /notifications` | twelve notifications as server-sent events over connections that drop; resumes after `Last-Event-ID` |
/// | `GET /files/tour.bin` | 2 MiB (byte `i` is `i % 251`) at 4 MiB/s with `ETag` and ranges; a whole-file `200` is cut after 1 MiB, so a download completes only by resuming |
/// | `GET /upload-host` | `{"origin"}`: the demo's upload host (a ``ResumableUploadServer``), where `POST /uploads/:name` starts a resumable upload whose first `PATCH` is cut after 1 MiB; 404 when the server has none |
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public enum DemoRoutes {
    /// Adds the demo API to `router`, with fresh state.
    public static func register(on router: Router<BasicRequestContext>) {
        register(on: router, store: DemoStore())
    }

    static func register(on router: Router<BasicRequestContext>, store: DemoStore, uploadHost: URL? = nil) {
        router.get("upload-host") { _, _ in
            guard let uploadHost else { return Responses.error("no upload host", status: .notFound) }
            return Responses.json(UploadHostPayload(origin: uploadHost.absoluteString))
        }
        UserRoutes.register(on: router, store: store)
        AccountRoutes.register(on: router, store: store)
        DiagnosticRoutes.register(on: router, store: store)
        FeedRoutes.register(on: router, feeds: FeedStore())
        StreamRoutes.register(on: router)
        let files = FileRoutes()
        files.set(tourFileName, tourFileContents)
        files.bytesPerSecond = 4 << 20
        files.wholeResponseLimit = tourFileSize / 2
        files.register(on: router)
    }

    /// The file of the tour's download, under `/files/`.
    static let tourFileName = "tour.bin"
    /// Its size: 2 MiB.
    static let tourFileSize = 2 << 20
    /// Its bytes (byte `i` is `i % 251`), made once per process from one 251-byte cycle: a
    /// byte at a time it took a debug build a quarter of a second per server started.
    static let tourFileContents: Data = {
        let cycle = Data((0..<251).map { UInt8($0) })
        var contents = Data(capacity: tourFileSize)
        while contents.count < tourFileSize { contents.append(cycle.prefix(tourFileSize - contents.count)) }
        return contents
    }()
}
