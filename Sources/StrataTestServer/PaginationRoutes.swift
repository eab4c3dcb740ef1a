import Foundation
import Hummingbird
import NIOConcurrencyHelpers

/// Routes that page through ``items`` in the common styles, counting the requests each
/// receives (with their query):
///
/// - `GET /paged/numbers?page=N&per=K`: page `N` (from 1) as a JSON array; `[]` past the end.
/// - `GET /paged/offset?offset=O&limit=L`: the items from index `O`, at most `L`.
/// - `GET /paged/cursor?cursor=C&per=K`: `{"items": […], "next": C?}`, where a cursor is
///   an opaque text with characters a query must escape (`after 5/+&=`); no cursor starts.
/// - `GET /paged/link?page=N`: page `N` of 5 items, with a `Link` field of several links —
///   relative targets, quoted parameters with commas and semicolons, `rel` with two
///   relation types — whose `next` is left out on the last page.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public final class PaginationRoutes: Sendable {
    /// One item of a paged list.
    public struct Item: Codable, Sendable, Equatable {
        /// From 1.
        public var id: Int
        /// `item-<id>`.
        public var name: String

        /// Item `id`, named `item-<id>`.
        public init(id: Int) {
            self.id = id
            self.name = "item-\(id)"
        }
    }

    /// What `/paged/cursor` answers.
    public struct CursorPage: Codable, Sendable {
        /// The page's items.
        public var items: [Item]
        /// The next page's cursor; `nil` on the last page.
        public var next: String?
    }

    /// The 23 items every route pages through.
    public static let items = (1...23).map(Item.init(id:))

    private let received = NIOLockedValueBox<[String]>([])

    /// Creates the routes with no request counted.
    public init() {}

    /// The requests so far, in order, as path and query (`/paged/numbers?page=2&per=5`).
    public var requests: [String] { received.withLockedValue { $0 } }

    /// The cursor of the page that starts after item `id`.
    public static func cursor(after id: Int) -> String { "after \(id)/+&=" }

    /// Adds the routes to `router`.
    public func register(on router: Router<BasicRequestContext>) {
        router.get("paged/numbers") { request, _ in
            self.record(request)
            let per = max(1, request.uri.queryParameters.get("per", as: Int.self) ?? 5)
            let page = max(1, request.uri.queryParameters.get("page", as: Int.self) ?? 1)
            return try EchoRoutes.json(Self.slice(from: (page - 1) * per, count: per))
        }
        router.get("paged/offset") { request, _ in
            self.record(request)
            let offset = max(0, request.uri.queryParameters.get("offset", as: Int.self) ?? 0)
            let limit = max(1, request.uri.queryParameters.get("limit", as: Int.self) ?? 5)
            return try EchoRoutes.json(Self.slice(from: offset, count: limit))
        }
        router.get("paged/cursor") { request, _ in
            self.record(request)
            let per = max(1, request.uri.queryParameters.get("per", as: Int.self) ?? 5)
            let start =
                request.uri.queryParameters.get("cursor").flatMap { cursor in
                    (0...Self.items.count).first { Self.cursor(after: $0) == cursor }
                } ?? 0
            let page = Self.slice(from: start, count: per)
            let next = start + page.count < Self.items.count ? Self.cursor(after: start + page.count) : nil
            return try EchoRoutes.json(CursorPage(items: page, next: next))
        }
        router.get("paged/link") { request, context in
            self.record(request)
            let page = max(1, request.uri.queryParameters.get("page", as: Int.self) ?? 1)
            let last = (Self.items.count + 4) / 5
            var links = [
                #"</paged/link?page=1>; rel="first"; title="the first, page; one""#,
                #"<?page=\#(last)>; rel="last end""#,
            ]
            if page < last {
                links.insert(#"<link?page=\#(page + 1)>; title="next, \"page\""; rel="next""#, at: 1)
            }
            var response = try EchoRoutes.json(Self.slice(from: (page - 1) * 5, count: 5))
            response.headers[.init("Link")!] = links.joined(separator: ", ")
            return response
        }
    }

    private static func slice(from start: Int, count: Int) -> [Item] {
        Array(items.dropFirst(start).prefix(count))
    }

    private func record(_ request: Request) {
        let target = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
        received.withLockedValue { $0.append(target) }
    }
}
