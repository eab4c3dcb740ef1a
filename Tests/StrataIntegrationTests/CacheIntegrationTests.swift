import Foundation
import HTTPTypes
import Strata
import StrataTestServer
import StrataTestSupport
import Testing

/// The HTTP cache against a real server that counts requests, over every transport, on
/// an injected clock (expiry without waiting).
@Suite struct CacheIntegrationTests {
    /// A wall clock tests move by hand.
    final class Clock: Sendable {
        private let time = Locked(Date(timeIntervalSince1970: 1_700_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    /// Sends requests for `origin` to `target` instead, when set: the cache above it
    /// keys responses by `origin` whatever server answered (for the offline tests).
    struct Retarget: Middleware {
        let target: Locked<URL?>

        func intercept(
            _ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext,
            next: MiddlewareNext
        ) async throws -> (HTTPResponse, MessageBody?) {
            var request = request
            if let url = target.withLock({ $0 }), let port = url.port { request.authority = "127.0.0.1:\(port)" }
            return try await next(request, body, context)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    struct Fixture {
        let routes: CacheRoutes
        let server: TestServer
        let clock: Clock
        let store: MemoryCacheStore
        let cache: CacheMiddleware
        let networker: Networker

        func endpoint(_ name: String, _ query: String = "", base: URL? = nil) -> Endpoint<String> {
            let url = URL(
                string: "\((base ?? server.baseURL).absoluteString)/cache/\(name)\(query.isEmpty ? "" : "?" + query)")!
            return Endpoint<String>(RequestDescription(route: FixedURLRoute(target: url)))
        }

        /// A `HEAD` of the same URI as ``endpoint(_:_:base:)``.
        func headEndpoint(_ name: String, _ query: String) -> Endpoint<String> {
            let url = URL(string: "\(server.baseURL.absoluteString)/cache/\(name)?\(query)")!
            return Endpoint<String>(RequestDescription(route: FixedURLRoute(target: url), method: .head))
        }

        func load(_ endpoint: Endpoint<String>) async throws -> EndpointResponse<String> {
            try await networker.response(for: endpoint)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func with(_ kind: TransportKind, extra: [any Middleware] = [], _ body: (Fixture) async throws -> Void)
        async throws
    {
        let routes = CacheRoutes()
        try await TestServer.with(configure: { routes.register(on: $0) }) { server in
            try await kind.with { transport in
                let clock = Clock()
                let store = MemoryCacheStore()
                let cache = CacheMiddleware(store: store, now: { clock.now })
                let fixture = Fixture(
                    routes: routes, server: server, clock: clock, store: store, cache: cache,
                    networker: Networker(transport: transport, middleware: [cache] + extra))
                try await body(fixture)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func staleWhileRevalidateServesTheStaleCopyAndRefreshesItInTheBackground(_ kind: TransportKind) async throws {
        try await Self.with(kind) { fixture in
            let endpoint = fixture.endpoint("swr", "cc=max-age%3D10,stale-while-revalidate%3D60&etag=1")
            #expect(try await fixture.load(endpoint).value == "swr #1")
            fixture.clock.advance(20)  // stale by 10 s, within the 60 s window

            let stale = try await fixture.load(endpoint)
            #expect(stale.value == "swr #1")
            #expect(stale.cache == CacheOutcome(source: .cache, age: .seconds(20), isStale: true))
            await fixture.networker.background.waitForAll()
            #expect(fixture.networker.background.count == 0)
            #expect(fixture.routes.hits("swr") == 2)
            #expect(fixture.routes.notModified == 1)  // revalidated with If-None-Match
            let refreshed = try await fixture.load(endpoint)
            #expect(refreshed.value == "swr #1")
            #expect(refreshed.cache == CacheOutcome(source: .cache, age: .seconds(0), isStale: false))

            fixture.routes.changeAll()  // a new version on the server
            fixture.clock.advance(20)
            #expect(try await fixture.load(endpoint).value == "swr #1")  // stale, at once
            await fixture.networker.background.waitForAll()
            let updated = try await fixture.load(endpoint)
            #expect(updated.value == "swr #3")
            #expect(updated.cache?.source == .cache)
            #expect(fixture.routes.hits("swr") == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aHeadResponseFreshensOrInvalidatesTheStoredGet(_ kind: TransportKind) async throws {
        try await Self.with(kind) { fixture in
            let query = "cc=max-age%3D10&etag=1"
            let get = fixture.endpoint("head", query)
            #expect(try await fixture.load(get).value == "head #1")
            fixture.clock.advance(30)  // age 30 > max-age 10: stale
            let head = try await fixture.load(fixture.headEndpoint("head", query))
            #expect(head.head.status.code == 200)
            #expect(head.value == "")
            let freshened = try await fixture.load(get)
            #expect(freshened.value == "head #1")
            #expect(freshened.cache == CacheOutcome(source: .cache, age: .seconds(0), isStale: false))
            #expect(fixture.routes.hits("head") == 2)

            fixture.routes.changeAll()  // a new ETag: the HEAD says the stored GET is outdated
            _ = try await fixture.load(fixture.headEndpoint("head", query))
            let refetched = try await fixture.load(get)
            #expect(refetched.value == "head #4")
            #expect(refetched.cache?.source == .network)
            #expect(fixture.routes.hits("head") == 4)
            #expect(fixture.routes.notModified == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func freshResponsesAreServedWithTheirAgeUntilTheyExpire(_ kind: TransportKind) async throws {
        try await Self.with(kind) { fixture in
            let endpoint = fixture.endpoint("fresh", "cc=max-age%3D60&age=50")
            let first = try await fixture.load(endpoint)
            #expect(first.value == "fresh #1")
            #expect(first.cache?.source == .network)
            #expect(first.cache?.age == .seconds(50))
            fixture.clock.advance(9)
            let second = try await fixture.load(endpoint)
            #expect(second.value == "fresh #1")
            #expect(second.cache == CacheOutcome(source: .cache, age: .seconds(59), isStale: false))
            #expect(second.head.headerFields[.age] == "59")
            fixture.clock.advance(1)  // age 60 = max-age: stale, no validator
            #expect(try await fixture.load(endpoint).value == "fresh #2")
            #expect(fixture.routes.hits("fresh") == 2)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func staleResponsesAreRevalidatedWithETagAndLastModified(_ kind: TransportKind) async throws {
        try await Self.with(kind) { fixture in
            let tagged = fixture.endpoint("tagged", "cc=max-age%3D10&etag=1")
            #expect(try await fixture.load(tagged).value == "tagged #1")
            let dated = fixture.endpoint("dated", "lm=Tue,%2014%20Nov%202023%2022:13:20%20GMT")
            #expect(try await fixture.load(dated).value == "dated #1")
            fixture.clock.advance(11)
            let revalidated = try await fixture.load(tagged)
            #expect(revalidated.head.status == .ok)
            #expect(revalidated.value == "tagged #1")
            #expect(revalidated.cache?.source == .revalidated)
            #expect(try await fixture.load(dated).cache?.source == .revalidated)
            #expect(fixture.routes.notModified == 2)
            fixture.routes.changeAll()
            fixture.clock.advance(11)
            let changed = try await fixture.load(tagged)
            #expect(changed.value == "tagged #3")
            #expect(changed.cache?.source == .network)
            #expect(fixture.routes.hits("tagged") == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func varyNoStoreNoCacheAndAuthorization(_ kind: TransportKind) async throws {
        try await Self.with(kind) { fixture in
            let varied = fixture.endpoint("varied", "cc=max-age%3D60&vary=Accept-Language&echo=Accept-Language")
            #expect(try await fixture.load(varied.header(.acceptLanguage, "en")).value == "varied #1 en")
            #expect(try await fixture.load(varied.header(.acceptLanguage, "de")).value == "varied #2 de")
            #expect(try await fixture.load(varied.header(.acceptLanguage, "en")).value == "varied #1 en")
            let star = fixture.endpoint("star", "cc=max-age%3D60&vary=*")
            _ = try await fixture.load(star)
            #expect(try await fixture.load(star).value == "star #2")

            let noStore = fixture.endpoint("nostore", "cc=no-store,max-age%3D60")
            _ = try await fixture.load(noStore)
            #expect(try await fixture.load(noStore).value == "nostore #2")

            let noCache = fixture.endpoint("nocache", "cc=no-cache,max-age%3D60&etag=1")
            _ = try await fixture.load(noCache)
            #expect(try await fixture.load(noCache).cache?.source == .revalidated)
            #expect(fixture.routes.hits("nocache") == 2)

            let privateAnswer = fixture.endpoint("private", "cc=max-age%3D60").header(.authorization, "Bearer t")
            _ = try await fixture.load(privateAnswer)
            #expect(try await fixture.load(privateAnswer).value == "private #2")
            let publicAnswer = fixture.endpoint("public", "cc=public,max-age%3D60").header(.authorization, "Bearer t")
            _ = try await fixture.load(publicAnswer)
            #expect(try await fixture.load(publicAnswer).value == "public #1")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func unsafeMethodsInvalidateTheTargetAndItsLocation(_ kind: TransportKind) async throws {
        try await Self.with(kind) { fixture in
            let list = fixture.endpoint("list", "cc=max-age%3D60")
            let item = fixture.endpoint("item", "cc=max-age%3D60")
            _ = try await fixture.load(list)
            _ = try await fixture.load(item)
            let location = "/cache/item?cc=max-age%253D60"
            var post = RequestDescription(
                route: FixedURLRoute(
                    target: URL(
                        string:
                            "\(fixture.server.baseURL.absoluteString)/cache/list?cc=max-age%3D60&location=\(location)")!
                ))
            post.method = .post
            _ = try await fixture.networker.send(Endpoint<Void>(post))
            // The POST's own URI differs from the list's (the location query), so only Location invalidates.
            #expect(try await fixture.load(item).value == "item #2")
            #expect(try await fixture.load(list).value == "list #1")
            var delete = RequestDescription(
                route: FixedURLRoute(
                    target: URL(string: "\(fixture.server.baseURL.absoluteString)/cache/list?cc=max-age%3D60")!))
            delete.method = .delete
            _ = try await fixture.networker.send(Endpoint<Void>(delete))
            #expect(try await fixture.load(list).value == "list #4")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func strategiesAndTheOfflineFallbackWithTheServerStopped(_ kind: TransportKind) async throws {
        let closed = try ClosedPort()
        let target = Locked<URL?>(nil)
        let offlineBase = URL(string: "http://127.0.0.1:\(closed.port)")!
        try await Self.with(kind, extra: [Retarget(target: target)]) { fixture in
            target.withLock { $0 = fixture.server.baseURL }
            let feed = fixture.endpoint("feed", "cc=max-age%3D5", base: offlineBase)
            await #expect { try await fixture.load(feed.cache(.cacheOnly)) } throws: {
                ($0 as? StrataError)?.kind == .cacheMiss
            }
            #expect(try await fixture.load(feed.cache(.cacheElseRemote)).value == "feed #1")
            fixture.clock.advance(100)
            #expect(
                try await fixture.load(feed.cache(.cacheElseRemote)).cache
                    == CacheOutcome(source: .cache, age: .seconds(100), isStale: true))
            #expect(try await fixture.load(feed.cache(.remoteElseCache)).value == "feed #2")
            #expect(fixture.routes.hits("feed") == 2)

            await fixture.server.shutdown()
            target.withLock { $0 = nil }  // the server is gone: requests go to a port nobody listens on
            fixture.clock.advance(30)
            let offline = try await fixture.load(feed.cache(.remoteElseCache))
            #expect(offline.value == "feed #2")
            #expect(offline.cache == CacheOutcome(source: .cache, age: .seconds(30), isStale: true))
            #expect(try await fixture.load(feed.cache(.cacheOnly)).value == "feed #2")
            await #expect { try await fixture.load(feed) } throws: {
                ($0 as? StrataError)?.transportError?.kind == .connectionRefused
            }
        }
        _ = closed
    }

    @Test(arguments: TransportKind.allCases)
    func cacheThenRemoteShowsTheCachedValueThenTheFreshOne(_ kind: TransportKind) async throws {
        try await Self.with(kind) { fixture in
            let feed = fixture.endpoint("screen", "cc=max-age%3D10")
            var seen: [String] = []
            for try await response in fixture.networker.cacheThenRemote(feed) { seen.append(response.value) }
            #expect(seen == ["screen #1"])
            fixture.clock.advance(60)
            seen = []
            for try await response in fixture.networker.cacheThenRemote(feed) {
                seen.append("\(response.value) (\(response.cache?.source.description ?? "?"))")
            }
            #expect(seen == ["screen #1 (cache)", "screen #2 (network)"])
        }
    }
}
