import Foundation
import HTTPTypes
import Testing

@testable import Strata
@testable import StrataCore

/// The cache step over a scripted transport and an injected clock: every strategy, exact
/// request counts, ages and sources.
@Suite struct CacheMiddlewareTests {
    /// A transport that counts requests, keeps them, and answers with `respond`.
    final class Origin: Sendable {
        typealias Reply = (status: Int, fields: HTTPFields, body: String)
        let requests = Locked<[HTTPRequest]>([])
        let respond: @Sendable (HTTPRequest, Int) throws -> Reply

        init(_ respond: @escaping @Sendable (HTTPRequest, Int) throws -> Reply) {
            self.respond = respond
        }

        var count: Int { requests.withLock { $0.count } }
        var last: HTTPRequest? { requests.withLock { $0.last } }

        var transport: ClosureTransport {
            ClosureTransport { request, _, _ in
                let number = self.requests.withLock {
                    $0.append(request)
                    return $0.count
                }
                let reply = try self.respond(request, number)
                return (
                    HTTPResponse(status: .init(code: reply.status), headerFields: reply.fields), MessageBody(reply.body)
                )
            }
        }
    }

    /// A clock tests move by hand.
    final class Clock: Sendable {
        let time = Locked(CacheRulesTests.t0)
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    struct Setup {
        let origin: Origin
        let clock = Clock()
        let store = MemoryCacheStore()
        let networker: Networker

        /// `asDefault`: the cache is one of the client's configuration's default steps
        /// rather than its own.
        init(
            configuration: CacheMiddleware.Configuration = .init(),
            asDefault: Bool = false,
            _ respond: @escaping @Sendable (HTTPRequest, Int) throws -> Origin.Reply
        ) {
            let origin = Origin(respond)
            let clock = self.clock
            self.origin = origin
            let cache = CacheMiddleware(store: store, configuration: configuration, now: { clock.now })
            if asDefault {
                var client = Networker.Configuration()
                client.defaultMiddleware.append(cache)
                networker = Networker(transport: origin.transport, configuration: client)
            } else {
                networker = Networker(transport: origin.transport, middleware: [cache])
            }
        }
    }

    static let items = Endpoint<String>(RequestDescription(route: "https://api.test/items"))

    static func load(_ setup: Setup, _ endpoint: Endpoint<String> = items) async throws -> EndpointResponse<String> {
        try await setup.networker.response(for: endpoint)
    }

    @Test func aStreamedCallThatFailsSaysTheCacheAnsweredIt() async throws {
        let setup = Setup { _, number in (404, [.cacheControl: "max-age=60"], "gone \(number)") }
        _ = try? await Self.load(setup)
        setup.clock.advance(5)
        do {
            _ = try await setup.networker.stream(Self.items)
            Issue.record("a stored 404 streamed without an error")
        } catch {
            #expect(error.kind == .unacceptableStatus)
            #expect(error.cache == CacheOutcome(source: .cache, age: .seconds(5), isStale: false))
            #expect(error.bodySnippet == "gone 1")
        }
        #expect(setup.origin.count == 1)
    }

    @Test func aFreshResponseIsServedFromTheStoreWithItsAge() async throws {
        let setup = Setup { _, number in (200, [.cacheControl: "max-age=60"], "v\(number)") }
        let first = try await Self.load(setup)
        #expect(first.value == "v1")
        #expect(first.cache == CacheOutcome(source: .network, age: .zero, isStale: false))
        setup.clock.advance(42)
        let second = try await Self.load(setup)
        #expect(second.value == "v1")
        #expect(second.head.headerFields[.age] == "42")
        #expect(second.cache == CacheOutcome(source: .cache, age: .seconds(42), isStale: false))
        #expect(setup.origin.count == 1)
        setup.clock.advance(18)  // age 60: stale, and no validator → a full request
        #expect(try await Self.load(setup).value == "v2")
        #expect(setup.origin.count == 2)
    }

    @Test func aStaleResponseIsRevalidatedAndA304ServesTheStoredBody() async throws {
        let setup = Setup { request, number in
            if request.headerFields[.ifNoneMatch] == "\"v1\"" {
                return (304, [.eTag: "\"v1\"", .cacheControl: "max-age=30", .init("X-Served")!: "\(number)"], "")
            }
            return (200, [.eTag: "\"v1\"", .cacheControl: "max-age=10"], "body")
        }
        _ = try await Self.load(setup)
        setup.clock.advance(11)
        let revalidated = try await Self.load(setup)
        #expect(setup.origin.last?.headerFields[.ifNoneMatch] == "\"v1\"")
        #expect(revalidated.head.status == .ok)
        #expect(revalidated.value == "body")
        #expect(revalidated.head.headerFields[.init("X-Served")!] == "2")
        #expect(revalidated.cache?.source == .revalidated)
        setup.clock.advance(29)  // the 304's max-age=30 now applies
        #expect(try await Self.load(setup).cache?.source == .cache)
        #expect(setup.origin.count == 2)
    }

    @Test func lastModifiedBecomesIfModifiedSince() async throws {
        let setup = Setup { request, _ in
            request.headerFields[.ifModifiedSince] == nil
                ? (200, [.lastModified: "Sun, 06 Nov 1994 08:00:00 GMT"], "old")
                : (304, [:], "")
        }
        _ = try await Self.load(setup)  // no freshness: stored stale, for revalidation
        let second = try await Self.load(setup)
        #expect(setup.origin.last?.headerFields[.ifModifiedSince] == "Sun, 06 Nov 1994 08:00:00 GMT")
        #expect(second.value == "old")
        #expect(second.cache?.source == .revalidated)
    }

    @Test func noStoreAndNoCache() async throws {
        let noStore = Setup { _, number in (200, [.cacheControl: "no-store, max-age=60"], "v\(number)") }
        _ = try await Self.load(noStore)
        #expect(try await Self.load(noStore).value == "v2")
        #expect(
            try await noStore.store.variants(
                for: #require(CacheKey(method: "GET", scheme: "https", authority: "api.test", path: "/items"))
            ).isEmpty)

        let noCache = Setup { request, _ in
            request.headerFields[.ifNoneMatch] == nil
                ? (200, [.cacheControl: "no-cache, max-age=60", .eTag: "\"a\""], "x") : (304, [:], "")
        }
        _ = try await Self.load(noCache)
        #expect(try await Self.load(noCache).cache?.source == .revalidated)
        #expect(noCache.origin.count == 2)
    }

    @Test func authorizationNeedsPublic() async throws {
        let setup = Setup { request, number in
            (200, [.cacheControl: request.path == "/public" ? "public, max-age=60" : "max-age=60"], "v\(number)")
        }
        let secret = Endpoint<String>(RequestDescription(route: "https://api.test/secret")).header(
            .authorization, "Bearer t")
        let shared = Endpoint<String>(RequestDescription(route: "https://api.test/public")).header(
            .authorization, "Bearer t")
        _ = try await Self.load(setup, secret)
        #expect(try await Self.load(setup, secret).value == "v2")
        _ = try await Self.load(setup, shared)
        #expect(try await Self.load(setup, shared).value == "v3")
        #expect(setup.origin.count == 3)
    }

    @Test func varyKeepsOneVariantPerValueAndStarIsNeverServed() async throws {
        let setup = Setup { request, number in
            (
                200, [.cacheControl: "max-age=60", .vary: request.path == "/star" ? "*" : "Accept-Language"],
                "\(request.headerFields[.acceptLanguage] ?? "-") \(number)"
            )
        }
        let english = Self.items.header(.acceptLanguage, "en")
        let german = Self.items.header(.acceptLanguage, "de")
        #expect(try await Self.load(setup, english).value == "en 1")
        #expect(try await Self.load(setup, german).value == "de 2")
        #expect(try await Self.load(setup, english).value == "en 1")
        #expect(try await Self.load(setup, german).value == "de 2")
        let star = Endpoint<String>(RequestDescription(route: "https://api.test/star"))
        _ = try await Self.load(setup, star)
        #expect(try await Self.load(setup, star).value == "- 4")
    }

    @Test func successfulUnsafeMethodsInvalidate() async throws {
        let setup = Setup { request, number in
            request.method == .post
                ? (201, [.location: "/items/9"], "") : (200, [.cacheControl: "max-age=60"], "v\(number)")
        }
        let item = Endpoint<String>(RequestDescription(route: "https://api.test/items/9"))
        _ = try await Self.load(setup)
        _ = try await Self.load(setup, item)
        _ = try await setup.networker.send(
            Endpoint<String>(RequestDescription(route: "https://api.test/items", method: .post)))
        #expect(try await Self.load(setup).value == "v4")
        #expect(try await Self.load(setup, item).value == "v5")
    }

    @Test func cacheOnlyNeverTouchesTheNetwork() async throws {
        let setup = Setup { _, number in (200, [:], "v\(number)") }
        await #expect { try await Self.load(setup, Self.items.cache(.cacheOnly)) } throws: { error in
            (error as? StrataError)?.kind == .cacheMiss
        }
        #expect(setup.origin.count == 0)
        _ = try await Self.load(setup)  // stored stale (no freshness), still served by cacheOnly
        setup.clock.advance(500)
        let cached = try await Self.load(setup, Self.items.cache(.cacheOnly))
        #expect(cached.value == "v1")
        #expect(cached.cache == CacheOutcome(source: .cache, age: .seconds(500), isStale: true))
        #expect(setup.origin.count == 1)
    }

    @Test func cacheElseRemoteServesStaleAndFetchesOnAMiss() async throws {
        let setup = Setup { _, number in (200, [.cacheControl: "max-age=1"], "v\(number)") }
        #expect(try await Self.load(setup, Self.items.cache(.cacheElseRemote)).value == "v1")
        setup.clock.advance(100)
        #expect(try await Self.load(setup, Self.items.cache(.cacheElseRemote)).value == "v1")
        #expect(setup.origin.count == 1)
    }

    @Test func remoteElseCacheFallsBackOnFailuresAnd5xx() async throws {
        let setup = Setup { _, number in
            switch number {
            case 1: return (200, [.cacheControl: "max-age=60"], "v1")
            case 2: throw TransportError(.connectionRefused)
            default: return (503, [:], "down")
            }
        }
        let endpoint = Self.items.cache(.remoteElseCache)
        _ = try await Self.load(setup, endpoint)
        setup.clock.advance(5)
        let offline = try await Self.load(setup, endpoint)
        #expect(offline.value == "v1")
        #expect(offline.cache == CacheOutcome(source: .cache, age: .seconds(5), isStale: false))
        let unavailable = try await Self.load(setup, endpoint)
        #expect(unavailable.value == "v1")
        #expect(setup.origin.count == 3)
    }

    @Test func staleIfErrorServesStaleOnlyInItsWindow() async throws {
        let setup = Setup { _, number in
            number == 1 ? (200, [.cacheControl: "max-age=10, stale-if-error=60"], "v1") : (500, [:], "boom")
        }
        _ = try await Self.load(setup)
        setup.clock.advance(30)
        let stale = try await Self.load(setup)
        #expect(stale.value == "v1")
        #expect(stale.cache == CacheOutcome(source: .cache, age: .seconds(30), isStale: true))
        setup.clock.advance(50)
        await #expect { try await Self.load(setup) } throws: { error in
            (error as? StrataError)?.status?.code == 500 && (error as? StrataError)?.cache?.source == .network
        }
    }

    @Test func bodiesAboveTheLimitPassThroughUnstored() async throws {
        let big = String(repeating: "x", count: 100)
        let requests = Locked(0)
        let streaming = ClosureTransport { _, _, _ in
            requests.withLock { $0 += 1 }
            let chunks = [Data(big.utf8.prefix(30)), Data(big.utf8.dropFirst(30))]
            return (
                HTTPResponse(status: .ok, headerFields: [.cacheControl: "max-age=60"]),
                MessageBody(length: nil, streaming: chunks.asStream)
            )
        }
        let store = MemoryCacheStore()
        let cache = CacheMiddleware(store: store, configuration: .init(maxBodySize: 40))
        let networker = Networker(transport: streaming, middleware: [cache])
        #expect(try await networker.send(Self.items) == big)
        #expect(try await networker.send(Self.items) == big)
        #expect(requests.withLock { $0 } == 2)
        #expect(store.size == 0)
    }

    @Test func cacheThenRemoteYieldsTheCachedValueThenTheFreshOne() async throws {
        let setup = Setup { _, number in (200, [.cacheControl: "max-age=10"], number >= 2 ? "v2" : "v1") }
        var first: [String] = []
        for try await response in setup.networker.cacheThenRemote(Self.items) {
            first.append("\(response.value) \(response.cache?.source.description ?? "")")
        }
        #expect(first == ["v1 network"])
        var second: [String] = []
        for try await response in setup.networker.cacheThenRemote(Self.items) {
            second.append("\(response.value) \(response.cache?.source.description ?? "")")
        }
        #expect(second == ["v1 cache"])  // still fresh: the same value, yielded once
        setup.clock.advance(20)
        var third: [String] = []
        for try await response in setup.networker.cacheThenRemote(Self.items) {
            third.append("\(response.value) \(response.cache?.source.description ?? "")")
        }
        #expect(third == ["v1 cache", "v2 network"])
        setup.clock.advance(20)
        var fourth: [String] = []
        for try await response in setup.networker.cacheThenRemote(Self.items) { fourth.append(response.value) }
        #expect(fourth == ["v2"])  // fetched again (no validator) but the same bytes
        #expect(setup.origin.count == 3)
    }

    /// The client's cache is found among its configuration's default steps too (it was
    /// looked for among its own steps alone, and a default cache was never read first).
    @Test func cacheThenRemoteFindsACacheAmongTheDefaultSteps() async throws {
        let setup = Setup(asDefault: true) { _, number in (200, [.cacheControl: "max-age=10"], "v\(number)") }
        #expect(setup.networker.installedStep(CacheMiddleware.self) != nil)
        _ = try await Self.load(setup)
        setup.clock.advance(20)
        var values: [String] = []
        for try await response in setup.networker.cacheThenRemote(Self.items) {
            values.append("\(response.value) \(response.cache?.source.description ?? "")")
        }
        #expect(values == ["v1 cache", "v2 network"])
    }
}

extension Array where Element == Data {
    /// The chunks as a one-shot async sequence.
    var asStream: AsyncStream<Data> {
        AsyncStream { continuation in
            for chunk in self { continuation.yield(chunk) }
            continuation.finish()
        }
    }
}

extension CacheMiddlewareTests {
    @Test func onlyIfCachedAnswers504WithoutAUsableCopy() async throws {
        let setup = Setup { _, number in (200, [.cacheControl: "max-age=10"], "v\(number)") }
        let onlyIfCached = Self.items.header(.cacheControl, "only-if-cached").validation(
            ResponseValidation(statusCodes: 200..<600))
        #expect(try await Self.load(setup, onlyIfCached).head.status.code == 504)
        _ = try await Self.load(setup)
        #expect(try await Self.load(setup, onlyIfCached).value == "v1")
        setup.clock.advance(11)
        #expect(try await Self.load(setup, onlyIfCached).head.status.code == 504)
        #expect(setup.origin.count == 1)
    }
}
