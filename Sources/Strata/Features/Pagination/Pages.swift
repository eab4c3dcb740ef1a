import Foundation

/// The pages of a paged endpoint, loaded one at a time as they are iterated (see
/// ``Networker/pages(_:style:limit:)``).
///
/// Each page is a call through the client, with its deadline, retries, cache and
/// middleware. The sequence ends after the last page (the style finds no next one), after
/// `limit` pages, or when a page's next URL is the page's own; it throws the
/// ``StrataError`` of a page that fails, or, after the last page it could return,
/// ``StrataError/Kind/invalidURL`` when the style cannot build the next URL.
public struct Pages<Page: Sendable>: AsyncSequence, Sendable {
    /// A page.
    public typealias Element = Page

    let networker: Networker
    let endpoint: Endpoint<Page>
    let style: PageStyle<Page>
    let limit: Int

    /// Starts at the first page.
    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: self)
    }

    /// The items of every page, in order: `items` picks them out of a page.
    public func items<Item: Sendable>(_ items: @escaping @Sendable (Page) -> [Item]) -> PageItems<Page, Item> {
        PageItems(pages: self, items: items)
    }

    /// Loads the pages in order.
    public struct Iterator: AsyncIteratorProtocol {
        private let pages: Pages
        private var state = State.start
        private var number = 0

        private enum State {
            case start
            case page(URL)
            /// The style could not work out the page after the last one returned.
            case failed(StrataError)
            case end
        }

        init(pages: Pages) {
            self.pages = pages
        }

        /// The next page, or `nil` after the last one.
        /// - Throws: ``StrataError``.
        public mutating func next() async throws -> Page? {
            let url: URL
            switch state {
            case .start:
                do {
                    url = try pages.style.first(try pages.endpoint.request.route.url())
                } catch {
                    state = .end
                    throw StrataError(.invalidURL, underlying: error)
                }
            case .page(let next): url = next
            case .failed(let error):
                state = .end
                throw error
            case .end: return nil
            }
            state = .end
            guard number < pages.limit else { return nil }
            number += 1
            var endpoint = pages.endpoint
            endpoint.request.route = url
            let response = try await pages.networker.response(for: endpoint)
            do {
                if let next = try pages.style.next(PageStep(url: url, number: number, response: response)), next != url
                {
                    state = .page(next)
                }
            } catch {
                state = .failed(
                    StrataError(.invalidURL, underlying: error, request: response.request, response: response.head))
            }
            return response.value
        }
    }
}

/// The items of a paged endpoint's pages, in order (see ``Pages/items(_:)``).
public struct PageItems<Page: Sendable, Item: Sendable>: AsyncSequence, Sendable {
    /// An item.
    public typealias Element = Item

    let pages: Pages<Page>
    let items: @Sendable (Page) -> [Item]

    /// Starts at the first page's first item.
    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: pages.makeAsyncIterator(), items: items)
    }

    /// Loads a page when the one before is used up.
    public struct Iterator: AsyncIteratorProtocol {
        private var pages: Pages<Page>.Iterator
        private let items: @Sendable (Page) -> [Item]
        private var buffered: [Item] = []
        private var position = 0

        init(pages: Pages<Page>.Iterator, items: @escaping @Sendable (Page) -> [Item]) {
            self.pages = pages
            self.items = items
        }

        /// The next item, or `nil` after the last page's last one.
        /// - Throws: ``StrataError``.
        public mutating func next() async throws -> Item? {
            while position == buffered.count {
                guard let page = try await pages.next() else { return nil }
                buffered = items(page)
                position = 0
            }
            defer { position += 1 }
            return buffered[position]
        }
    }
}

extension Pages where Page: Sequence, Page.Element: Sendable {
    /// The items of every page, in order, for pages that are lists.
    public var items: PageItems<Page, Page.Element> {
        items { Array($0) }
    }
}
