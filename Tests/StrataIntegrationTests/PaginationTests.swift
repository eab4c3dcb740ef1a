import Foundation
import Strata
import StrataTestServer
import StrataTestSupport
import Testing

/// Each paging style against the in-process server on both transports: exact items, and
/// exactly the requests the server saw.
@Suite("Pagination")
struct PaginationTests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    typealias Item = PaginationRoutes.Item

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func withServer(
        _ kind: TransportKind, _ body: (Networker, TestServer, PaginationRoutes) async throws -> Void
    ) async throws {
        let routes = PaginationRoutes()
        try await TestServer.with(configure: { routes.register(on: $0) }) { server in
            try await kind.with { transport in try await body(Networker(transport: transport), server, routes) }
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func endpoint<Page: Decodable & Sendable>(_ server: TestServer, _ target: String, _ page: Page.Type)
        -> Endpoint<Page>
    {
        Endpoint(RequestDescription(route: server.baseURL.absoluteString + target), decoding: page)
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func pageNumbersUntilAnEmptyPage(_ kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, server, routes in
            let pages = networker.pages(
                Self.endpoint(server, "/paged/numbers?per=5", [Item].self), style: .pageNumber())
            let received = try await collect(pages.items)
            #expect(received == PaginationRoutes.items)
            #expect(routes.requests == (1...6).map { "/paged/numbers?per=5&page=\($0)" })
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func offsetsUntilAShortPage(_ kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, server, routes in
            let pages = networker.pages(
                Self.endpoint(server, "/paged/offset", [Item].self), style: .offset(pageSize: 5))
            let received = try await collect(pages).map(\.count)
            #expect(received == [5, 5, 5, 5, 3])
            #expect(routes.requests == [0, 5, 10, 15, 20].map { "/paged/offset?offset=\($0)&limit=5" })
        }
    }

    /// The cursor has characters a query must escape; the server gets it back exactly.
    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func cursorsFromTheBody(_ kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, server, routes in
            let pages = networker.pages(
                Self.endpoint(server, "/paged/cursor?per=5", PaginationRoutes.CursorPage.self),
                style: .cursor { $0.next })
            let received = try await collect(pages.items { $0.items })
            #expect(received == PaginationRoutes.items)
            #expect(
                routes.requests
                    == ["/paged/cursor?per=5"]
                    + [5, 10, 15, 20].map { "/paged/cursor?per=5&cursor=after%20\($0)/%2B%26%3D" })
        }
    }

    /// `Link` fields with several relations, quoted parameters and relative targets.
    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func linkHeaders(_ kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, server, routes in
            let pages = networker.pages(Self.endpoint(server, "/paged/link", [Item].self), style: .linkHeader)
            let received = try await collect(pages.items)
            #expect(received == PaginationRoutes.items)
            #expect(routes.requests == ["/paged/link"] + (2...5).map { "/paged/link?page=\($0)" })
        }
    }

    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func theLimitEndsThePages(_ kind: TransportKind) async throws {
        try await Self.withServer(kind) { networker, server, routes in
            let pages = networker.pages(
                Self.endpoint(server, "/paged/numbers?per=5", [Item].self), style: .pageNumber(), limit: 2)
            let received = try await collect(pages.items).map(\.id)
            #expect(received == Array(1...10))
            #expect(routes.requests == ["/paged/numbers?per=5&page=1", "/paged/numbers?per=5&page=2"])
        }
    }
}
