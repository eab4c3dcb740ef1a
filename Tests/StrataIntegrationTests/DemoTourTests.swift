import Foundation
import Strata
import StrataAsyncHTTPClient
import StrataDemo
import StrataDemoServer
import StrataTestSupport
import StrataURLSession
import Testing

/// The transports the demo tour runs over.
enum DemoTransportKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case asyncHTTPClient
    case urlSession

    var testDescription: String { rawValue }

    /// The steps this transport cannot take part in here.
    var unsupportedSteps: [TourStepID: String] {
        DemoTour.unsupportedSteps(
            onURLSessionOverFoundationNetworking: self == .urlSession && Platform.isLinuxFoundation)
    }

    /// A fresh transport and the way to release it.
    func open() -> (transport: any Transport, shutdown: @Sendable () async throws -> Void) {
        switch self {
        case .asyncHTTPClient:
            let transport = AsyncHTTPClientTransport()
            return (transport, { try await transport.shutdown() })
        case .urlSession:
            return (URLSessionTransport(), {})
        }
    }

    /// Runs `body` with a fresh demo server and transport, releasing both afterwards.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func withServer<T>(_ body: (DemoServer, any Transport) async throws -> T) async throws -> T {
        let server = try await DemoServer.start()
        let (transport, shutdown) = open()
        let result: Result<T, any Error>
        do {
            result = .success(try await body(server, transport))
        } catch {
            result = .failure(error)
        }
        try await shutdown()
        await server.shutdown()
        return try result.get()
    }
}

@Suite("The strata-demo tour")
struct DemoTourTests {
    static let ann = StrataDemo.User(
        name: "Ann", age: 30, type: .owner,
        photos: [
            StrataDemo.Photo(id: "1-1", image: "https://img.example/ann/1.jpg"),
            StrataDemo.Photo(id: "1-2", image: "https://img.example/ann/2.jpg"),
        ])

    @Test("every step behaves as expected", arguments: DemoTransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func everyStepPasses(over kind: DemoTransportKind) async throws {
        let report = try await kind.withServer { server, transport in
            await DemoTour(baseURL: server.baseURL, transport: transport, skipping: kind.unsupportedSteps).run()
        }
        #expect(report.allPassed, "\(report.failures.map(Transcript.line(for:)))")
        #expect(report.results.map(\.step) == TourStepID.allCases)
        #expect(report.results.filter(\.skipped).map(\.step) == Array(kind.unsupportedSteps.keys))
        #expect(report.results.allSatisfy { $0.exchange != nil || $0.skipped })
        // Twenty-four steps in eleven sections, the OpenAPI section last with its two steps.
        #expect(report.results.count == 24)
        var sections: [TourSection] = []
        for result in report.results where sections.last != result.section { sections.append(result.section) }
        #expect(
            sections == [
                .models, .callbacks, .encodings, .headersAndAuth, .errors, .resilience, .caching, .offlineWrites,
                .streams, .transfers, .openAPI,
            ])
        #expect(
            report.results.filter { $0.section == .openAPI }.map(\.step) == [.generatedClient, .generatedClientRetries])
        // The generated client's schema type maps into the same app model as the app layer's.
        #expect(report[.generatedClient]?.value as? StrataDemo.User == Self.ann)
        #expect(report[.generatedClientRetries]?.value as? Int == 3)
        #expect(report.results.filter { $0.section == .streams }.map(\.step) == [.chatStream, .notificationsResume])
        #expect(
            report.results.filter { $0.section == .transfers }.map(\.step) == [
                .downloadResumes, .resumableUpload, .pagedList,
            ])
        #expect(report.results.filter { $0.section == .caching }.map(\.step) == [.cacheThenRemote, .offlineFallback])
    }

    @Test("the steps decode exactly what the server sent", arguments: DemoTransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func exactValues(over kind: DemoTransportKind) async throws {
        let printed = PrintedText()
        let report = try await kind.withServer { server, transport in
            await DemoTour(baseURL: server.baseURL, transport: transport, skipping: kind.unsupportedSteps).run(
                onProgress: { text in
                    printed.append(text)
                })
        }

        // Streams: the chat's tokens printed as they arrived, the notifications resumed.
        let reply = "Strata streams every token the moment it arrives."
        let (chat, bars) = printed.text.split(separator: "\n", maxSplits: 1).map(String.init).pairOrEmpty
        #expect(chat == "    \(reply)")
        let (downloadBars, uploadBars) = bars.split(separator: "\n", maxSplits: 1).map(String.init).pairOrEmpty
        #expect(downloadBars.hasPrefix("\r    [························] 0 % of 2048 KiB"))
        #expect(downloadBars.hasSuffix("\r    [████████████████████████] 100 % of 2048 KiB"))
        if kind.unsupportedSteps.isEmpty {
            #expect(uploadBars.hasPrefix("\r    [························] 0 % of 3072 KiB"))
            #expect(uploadBars.hasSuffix("\r    [████████████████████████] 100 % of 3072 KiB\n"))
        } else {
            #expect(uploadBars == "")
        }

        // Transfers: the download cut halfway and continued, the pages read to the empty one.
        #expect(report[.downloadResumes]?.value as? Int64 == 2 << 20)
        #expect(
            report[.downloadResumes]?.exchange
                == RecordedExchange(method: "GET", target: "/files/tour.bin", status: 206))
        // The upload cut at 1 MiB and resumed: the host stored the file whole.
        if kind.unsupportedSteps.isEmpty {
            let stored = try #require(report[.resumableUpload]?.value as? StoredUpload)
            #expect(stored.size == 3 << 20)
            #expect(stored.path == "/uploads/tour.bin")
            // The SHA-256 of 3 MiB of `i % 241`.
            #expect(stored.sha256 == "d97e9e833c9060884397b22cfa7da773e302d781b7eb0231e85822295ce2c6d1")
            let lastUploadRequest = try #require(report[.resumableUpload]?.exchange)
            #expect(lastUploadRequest.method == "PATCH")
            #expect(lastUploadRequest.status == 201)
            #expect(lastUploadRequest.target.hasPrefix("/resumable_upload/"))
        } else {
            #expect(report[.resumableUpload]?.summary.hasPrefix("skipped: URLSession on Linux") == true)
        }
        #expect(report[.pagedList]?.value as? [String] == ["Ann", "Bob", "Cleo", "Dan", "Hanna", "Ivan", "Zoe"])
        #expect(report[.pagedList]?.exchange == RecordedExchange(method: "GET", target: "/users?page=5", status: 200))
        #expect(report[.chatStream]?.value as? String == reply)
        #expect(report[.chatStream]?.summary == "8 tokens as they arrived, up to [DONE]: \"\(reply)\"")
        let notices = try #require(report[.notificationsResume]?.value as? [Notice])
        #expect(notices.map(\.id) == Array(1...12))
        #expect(notices.map(\.text) == (1...12).map { "Notification \($0)" })
        #expect(notices.map(\.connection) == [1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3])
        #expect(
            report[.notificationsResume]?.exchange
                == RecordedExchange(method: "GET", target: "/notifications", status: 204))

        // Seed 002: both layers of /users/1.
        let entry = try #require(report[.rawLayer]?.value as? StrataDemo.UserEntry)
        #expect(entry == (try Self.ann.toDTO()))
        #expect(report[.appLayer]?.value as? StrataDemo.User == Self.ann)
        #expect(report[.appLayer]?.summary == #"User(name: "Ann", photos: 2)"#)
        #expect(report[.appLayer]?.exchange == RecordedExchange(method: "GET", target: "/users/1", status: 200))

        // Seed 003 through the Result callback.
        let photo = try #require(report[.photoCallback]?.value as? AlbumPhoto)
        #expect(photo.id == 5 && photo.albumId == 1 && photo.title == "Photo 5")
        #expect(photo.url.absoluteString == "https://img.example/p/5.jpg")

        // Encodings.
        let page = try #require(report[.queryEncoding]?.value as? UsersPage)
        #expect(page.page == 1 && page.users.map(\.name) == ["Ann", "Dan"])
        #expect(report[.queryEncoding]?.exchange?.target == "/users?page=1&search=an")
        #expect(report[.jsonEncoding]?.exchange?.status == 201)
        let upload = try #require(report[.multipartUpload]?.value as? AvatarUpload)
        #expect(upload.field == "avatar")
        #expect(upload.filename == "zoe.png")
        #expect(upload.bytes == 2048)
        #expect(upload.contentType == "image/png")

        // The token flow: a form login, then the token as a bearer for /me.
        let token = try #require(report[.formLogin]?.value as? AuthToken)
        #expect(token.token.hasPrefix("demo-"))
        #expect(report[.formLogin]?.exchange == RecordedExchange(method: "POST", target: "/user/auth", status: 200))
        #expect(report[.bearerAuth]?.value as? StrataDemo.User == Self.ann)
        #expect(report[.wrongPassword]?.exchange?.status == 401)

        // Headers from the middleware and from the request.
        let headers = try #require(report[.headers]?.value as? EchoedHeaders)
        #expect(headers.headers["user-agent"] == "strata-demo/1.0")
        #expect(headers.headers["x-strata-demo"] == "tour")
        #expect(headers.headers["accept-language"] == "en")

        // Typed errors.
        let notFound = try #require(report[.notFound]?.value as? StrataError)
        #expect(notFound.status?.code == 404)
        #expect(notFound.bodySnippet?.contains("no user with id 99") == true)
        let broken = try #require(report[.malformedBody]?.value as? StrataError)
        #expect(broken.kind == .decoding)
        // Two 503s, then the third call to the fresh server succeeds within the one call.
        let flaky = try #require(report[.flaky]?.value as? JSON)
        #expect(flaky["attempt"]?.intValue == 3)
        #expect(report[.flaky]?.exchange?.status == 200)
        #expect(report[.flaky]?.summary == "200 on attempt 3 (after 2 × 503, retried with backoff); server call 3")
        // An expired token: a 401, one sign-in by the refresh, the same request answered.
        #expect(report[.tokenRefresh]?.value as? StrataDemo.User == Self.ann)
        #expect(report[.tokenRefresh]?.exchange == RecordedExchange(method: "GET", target: "/me", status: 200))
        #expect(
            report[.tokenRefresh]?.summary
                == "401 for an expired token → 1 refresh (signed in again) → User(name: \"Ann\", photos: 2)")

        // cacheThenRemote: the network; after a new post, the stored feed, then the fresh one.
        let welcome = "Welcome to feed 1"
        let cached = try #require(report[.cacheThenRemote]?.value as? FeedLoads)
        #expect(cached.sources == [.network, .cache, .network])
        #expect(cached.loads.map(\.feed.id) == [1, 1, 1])
        #expect(cached.loads.map(\.feed.revision) == [1, 1, 2])
        #expect(cached.loads.map(\.feed.posts) == [[welcome], [welcome], [welcome, "Post 2 of feed 1"]])
        #expect(cached.loads.map { $0.cache?.isStale } == [false, true, false])
        #expect(cached.stats == FeedStats(requests: 2, notModified: 0, failed: 0))
        #expect(report[.cacheThenRemote]?.exchange == RecordedExchange(method: "GET", target: "/feeds/1", status: 200))
        let storedAge = try #require(cached.loads[1].cache?.age).components.seconds
        #expect(
            report[.cacheThenRemote]?.summary == "1st: network Feed(revision: 1, posts: 1); a new post; "
                + "2nd: cache (age \(storedAge) s, stale) Feed(revision: 1, posts: 1), then network Feed(revision: 2, posts: 2); "
                + "server saw 2 GETs")
        // The offline fallback: the server answers 503 and the stored feed is served.
        let offline = try #require(report[.offlineFallback]?.value as? FeedLoads)
        #expect(offline.sources == [.network, .cache])
        #expect(offline.loads.map(\.feed.id) == [2, 2])
        #expect(offline.loads.map(\.feed.posts) == [["Welcome to feed 2"], ["Welcome to feed 2"]])
        #expect(offline.loads.map { $0.cache?.isStale } == [false, true])
        #expect(offline.stats == FeedStats(requests: 2, notModified: 0, failed: 1))
        #expect(report[.offlineFallback]?.exchange == RecordedExchange(method: "GET", target: "/feeds/2", status: 503))
        let offlineAge = try #require(offline.loads[1].cache?.age).components.seconds
        #expect(
            report[.offlineFallback]?.summary == "online: network Feed(revision: 1, posts: 1); "
                + "outage, 503 → stored copy: cache (age \(offlineAge) s, stale) Feed(revision: 1, posts: 1)")
        // Offline writes: three posts kept through the outage, then published once each, in order.
        let written = try #require(report[.offlineWrites]?.value as? Feed)
        #expect(written.id == 3)
        #expect(
            written.posts == ["Welcome to feed 3", "Post 2 of feed 3", "Post 3 of feed 3", "Post 4 of feed 3"])
        #expect(
            report[.offlineWrites]?.exchange == RecordedExchange(method: "POST", target: "/feeds/3/posts", status: 200))
        #expect(
            report[.offlineWrites]?.summary
                == "outage, 503: 3 posts kept; outage over: each delivered once, in order → Feed(revision: 4, posts: 4)"
        )
    }

    @Test(
        "later tours against the same server pass too; /flaky, recovered, needs no retry; each tour has its own feeds")
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func repeatedToursOnSameServer() async throws {
        let reports = try await DemoTransportKind.asyncHTTPClient.withServer { server, transport in
            var reports: [TourReport] = []
            for _ in 1...3 {
                reports.append(await DemoTour(baseURL: server.baseURL, transport: transport).run())
            }
            return reports
        }
        for report in reports {
            #expect(report.allPassed, "\(report.failures.map(Transcript.line(for:)))")
        }
        #expect(reports.map { $0[.flaky]?.exchange?.status } == [200, 200, 200])
        #expect(reports.map { ($0[.flaky]?.value as? JSON)?["attempt"]?.intValue } == [3, 4, 5])
        // Each tour's caching steps use feeds of their own, so the server's counts are theirs alone.
        let offline = reports.map { $0[.offlineFallback]?.value as? FeedLoads }
        #expect(offline.map { $0?.loads.first?.feed.id } == [2, 5, 8])
        #expect(offline.map { $0?.stats.failed } == [1, 1, 1])
        #expect(
            reports.map { ($0[.cacheThenRemote]?.value as? FeedLoads)?.sources }
                == Array(repeating: [.network, .cache, .network], count: 3))
    }

    @Test("a tour against a server that is not there fails, step by step, with transport errors")
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func unreachableServer() async throws {
        let closed = try ClosedPort()
        let report = try await DemoTransportKind.urlSession.withServer { _, transport in
            // A port bound without listening: refused, and no other test's server can take it.
            await DemoTour(baseURL: try #require(URL(string: "http://\(closed.authority)")), transport: transport).run()
        }
        #expect(report.failures.count == report.results.count)
        let first = try #require(report[.rawLayer])
        #expect(first.error?.kind == .transport, "expected a transport error, got \(first.summary)")
        // Once the server is known to be unreachable, the other steps are skipped.
        #expect(report.results.dropFirst().allSatisfy { $0.skipped && $0.exchange == nil })
        #expect(Transcript.footer(for: report).hasPrefix("\n✘"))
    }
}

/// What the tour printed while its steps ran.
/// `@unchecked Sendable`: `value` is only touched under `lock`.
final class PrintedText: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""

    /// Everything printed so far.
    var text: String { lock.withLock { value } }

    /// Adds printed text.
    func append(_ text: String) { lock.withLock { value += text } }
}

extension Array where Element == String {
    /// The first two elements, or empty strings for those missing.
    fileprivate var pairOrEmpty: (String, String) {
        (first ?? "", dropFirst().first ?? "")
    }
}
