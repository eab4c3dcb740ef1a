import Foundation

/// How a paged API leads from one page to the next: the first page's URL, and the
/// next page's URL after each page, or `nil` after the last one.
///
/// The common styles are built in: ``pageNumber(_:startingAt:isLast:)``,
/// ``offset(_:limit:pageSize:count:)``, ``cursor(_:next:)`` and ``linkHeader``; a style
/// of your own is a ``init(first:next:)``.
public struct PageStyle<Page: Sendable>: Sendable {
    /// The first page's URL, from the endpoint's URL.
    public var first: @Sendable (URL) throws -> URL
    /// The URL of the page after `step`'s, or `nil` when `step` was the last page.
    public var next: @Sendable (_ step: PageStep<Page>) throws -> URL?

    /// A style of your own.
    /// - Parameters:
    ///   - first: the first page's URL from the endpoint's; by default the endpoint's own.
    ///   - next: the next page's URL, or `nil` to end.
    public init(
        first: @escaping @Sendable (URL) throws -> URL = { $0 },
        next: @escaping @Sendable (_ step: PageStep<Page>) throws -> URL?
    ) {
        self.first = first
        self.next = next
    }
}

/// A page as a ``PageStyle`` sees it when it works out the next one.
public struct PageStep<Page: Sendable>: Sendable {
    /// The URL the page was loaded from.
    public let url: URL
    /// Which page it is: 1 for the first.
    public let number: Int
    /// The page's response: value, head and body.
    public let response: EndpointResponse<Page>

    /// The parsed page.
    public var page: Page { response.value }
}

extension PageStyle {
    /// `?page=1`, `?page=2`, … until `isLast` says a page was the last.
    /// - Parameters:
    ///   - parameter: the query parameter that numbers the pages.
    ///   - first: the first page's number.
    ///   - isLast: whether a page is the last one.
    public static func pageNumber(
        _ parameter: String = "page", startingAt first: Int = 1, isLast: @escaping @Sendable (Page) -> Bool
    ) -> PageStyle {
        PageStyle(first: { try $0.settingQueryItem(parameter, to: String(first)) }) { step in
            isLast(step.page) ? nil : try step.url.settingQueryItem(parameter, to: String(first + step.number))
        }
    }

    /// `?offset=0&limit=N`, `?offset=N&limit=N`, … until a page holds fewer than
    /// `pageSize` items.
    /// - Parameters:
    ///   - offset: the query parameter for the index of a page's first item.
    ///   - limit: the query parameter for the page size.
    ///   - pageSize: how many items to ask for per page.
    ///   - count: how many items a page holds.
    public static func offset(
        _ offset: String = "offset", limit: String = "limit", pageSize: Int,
        count: @escaping @Sendable (Page) -> Int
    ) -> PageStyle {
        PageStyle(first: { try $0.settingQueryItem(offset, to: "0").settingQueryItem(limit, to: String(pageSize)) }) {
            step in
            count(step.page) < pageSize
                ? nil : try step.url.settingQueryItem(offset, to: String(step.number * pageSize))
        }
    }

    /// The first page without a cursor, then `?cursor=VALUE` with the value each page
    /// gives for the next one, until a page gives none (`nil` or empty).
    /// - Parameters:
    ///   - parameter: the query parameter that carries the cursor.
    ///   - next: the cursor of the next page, taken from a page.
    public static func cursor(_ parameter: String = "cursor", next: @escaping @Sendable (Page) -> String?)
        -> PageStyle
    {
        PageStyle { step in
            guard let cursor = next(step.page), !cursor.isEmpty else { return nil }
            return try step.url.settingQueryItem(parameter, to: cursor)
        }
    }

    /// The link with relation `next` in the response's `Link` header fields (RFC 8288),
    /// resolved against the page's URL; the pages end with the first response without one.
    public static var linkHeader: PageStyle {
        PageStyle { step in
            guard
                let link = WebLink.links(in: step.response.head.headerFields).first(where: {
                    $0.relations.contains("next")
                })
            else { return nil }
            guard let url = link.url(relativeTo: step.url) else {
                throw URLRouteError.invalidURL(base: step.url.absoluteString, path: link.target)
            }
            return url
        }
    }
}

extension PageStyle where Page: Collection {
    /// `?page=1`, `?page=2`, … until a page is empty.
    public static func pageNumber(_ parameter: String = "page", startingAt first: Int = 1) -> PageStyle {
        pageNumber(parameter, startingAt: first, isLast: \.isEmpty)
    }

    /// `?offset=0&limit=N`, `?offset=N&limit=N`, … until a page holds fewer than `pageSize` items.
    public static func offset(_ offset: String = "offset", limit: String = "limit", pageSize: Int) -> PageStyle {
        self.offset(offset, limit: limit, pageSize: pageSize, count: \.count)
    }
}
