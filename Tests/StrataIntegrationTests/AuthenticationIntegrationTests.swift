import Foundation
import HTTPTypes
import Strata
import StrataTestServer
import StrataTestSupport
import Testing

/// Authentication refresh against a real server that accepts one token and counts what it
/// accepts and rejects, over every transport.
@Suite(.runsAlone) struct AuthenticationIntegrationTests {
    static let concurrency = 50

    /// Holds each request's first attempt until `count` of them have reached it, so that
    /// all of them go out with the same token together, before any 401 comes back.
    struct Barrier: Middleware {
        let count: Int
        private let arrived = Locked(0)
        private let release: AsyncStream<Void>
        private let open: AsyncStream<Void>.Continuation

        init(count: Int) {
            self.count = count
            (release, open) = AsyncStream.makeStream()
        }

        func intercept(
            _ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext,
            next: MiddlewareNext
        ) async throws -> (HTTPResponse, MessageBody?) {
            if context.attempt == 1 {
                if arrived.withLock({
                    $0 += 1
                    return $0
                }) == count {
                    open.finish()
                }
                for await _ in release {}
            }
            return try await next(request, body, context)
        }
    }

    /// A bearer token provider starting from `stale` whose refreshes hand out `fresh-1`,
    /// `fresh-2`… and make the server accept that token only, or fail with `failure`.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func provider(for routes: AuthRoutes, refreshes: Locked<Int>, failure: (any Error)? = nil)
        -> BearerTokenProvider
    {
        BearerTokenProvider(BearerToken("stale")) { _ in
            let number = refreshes.withLock { count in
                count += 1
                return count
            }
            if let failure { throw failure }
            routes.accept("fresh-\(number)")
            return BearerToken("fresh-\(number)")
        }
    }

    /// Sends `count` requests to the protected route at once, each result in its own slot.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func sendConcurrently(_ count: Int, to server: TestServer, through networker: Networker) async -> [Result<
        String, StrataError
    >] {
        let endpoint = Endpoint<String>(
            RequestDescription(
                route: FixedURLRoute(
                    target: server.baseURL.appendingPathComponent(String(AuthRoutes.path.dropFirst())))))
        return await withTaskGroup(of: Result<String, StrataError>.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do throws(StrataError) { return .success(try await networker.send(endpoint)) } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func fiftyRequestsWithAStaleTokenShareOneRefreshAndAllSucceed(_ kind: TransportKind) async throws {
        let routes = AuthRoutes(acceptedToken: "fresh-0")
        let refreshes = Locked(0)
        let auth = AuthenticationMiddleware(Self.provider(for: routes, refreshes: refreshes))
        try await TestServer.with(configure: { routes.register(on: $0) }) { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport, middleware: [auth, Barrier(count: Self.concurrency)])
                let results = await Self.sendConcurrently(Self.concurrency, to: server, through: networker)
                #expect(results.compactMap { try? $0.get() } == Array(repeating: "ok fresh-1", count: Self.concurrency))
                #expect(refreshes.withLock { $0 } == 1)
                #expect(routes.rejected == Self.concurrency)
                #expect(routes.accepted == Self.concurrency)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aFailedRefreshFailsAllFiftyWithItsErrorAfterOneAttempt(_ kind: TransportKind) async throws {
        struct RefreshRefused: Error {}
        let routes = AuthRoutes(acceptedToken: "fresh-0")
        let refreshes = Locked(0)
        let auth = AuthenticationMiddleware(Self.provider(for: routes, refreshes: refreshes, failure: RefreshRefused()))
        try await TestServer.with(configure: { routes.register(on: $0) }) { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport, middleware: [auth, Barrier(count: Self.concurrency)])
                let errors = await Self.sendConcurrently(Self.concurrency, to: server, through: networker).compactMap {
                    result -> StrataError? in
                    guard case .failure(let error) = result else { return nil }
                    return error
                }
                #expect(errors.count == Self.concurrency)
                #expect(errors.allSatisfy { $0.kind == .middleware && $0.underlying is RefreshRefused })
                #expect(Set(errors.compactMap(\.middleware)) == ["AuthenticationMiddleware<BearerTokenProvider>"])
                #expect(refreshes.withLock { $0 } == 1)
                #expect(routes.rejected == Self.concurrency)
                #expect(routes.accepted == 0)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aServerThatRejectsEverythingGetsNoMoreRefreshesThanTheWindowAllows(_ kind: TransportKind) async throws {
        let routes = AuthRoutes(acceptedToken: nil)
        let refreshes = Locked(0)
        let provider = BearerTokenProvider(BearerToken("stale")) { _ in
            let number = refreshes.withLock { count in
                count += 1
                return count
            }
            return BearerToken("fresh-\(number)")
        }
        let auth = AuthenticationMiddleware(provider, maxRefreshes: 2, per: .seconds(60))
        try await TestServer.with(configure: { routes.register(on: $0) }) { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport, middleware: [auth])
                for _ in 1...5 {
                    let results = await Self.sendConcurrently(1, to: server, through: networker)
                    guard case .failure(let error) = results.first else {
                        Issue.record("expected a 401, got \(results)")
                        continue
                    }
                    #expect(error.status?.code == 401)
                }
                #expect(refreshes.withLock { $0 } == 2)
                // Two requests sent twice around a refresh, then three sent once.
                #expect(routes.rejected == 7)
                #expect(routes.accepted == 0)
            }
        }
    }
}
