import Foundation
import HTTPTypes
import PropertyBased
import StrataTestSupport
import StrataTesting
import Testing

@testable import Strata
@testable import StrataCore

/// Paging over the mock transport: the URLs each style asks for, the limit, the end, and a
/// style that cannot go on. The same styles run against a real server in
/// `PaginationTests`.
@Suite struct PageStyleTests {
    @Test func aQueryItemIsSetOnceAndTheOthersKept() throws {
        let url = try #require(URL(string: "https://api.example.com/items?per=5&page=9&q=a%20b#top"))
        #expect(
            try url.settingQueryItem("page", to: "2").absoluteString
                == "https://api.example.com/items?per=5&page=2&q=a%20b#top")
        #expect(
            try url.settingQueryItem("cursor", to: "after 5/+&=é").absoluteString
                == "https://api.example.com/items?per=5&page=9&q=a%20b&cursor=after%205/%2B%26%3D%C3%A9#top")
    }

    /// Cursors come from the server: any text makes a valid URL that carries it exactly.
    @Test func anyCursorMakesAValidURL() async throws {
        let base = try #require(URL(string: "https://api.example.com/items?per=5"))
        await propertyCheck(count: 1000, input: PropertyGen.unicodeString(length: 0...40)) { cursor in
            let url = try? base.settingQueryItem("cursor", to: cursor)
            #expect(url != nil, "\(cursor.debugDescription)")
            // Read back byte for byte: Foundation's own decoding drops a leading BOM.
            let read = url?.query(percentEncoded: true)?.split(separator: "&")
                .first { $0.hasPrefix("cursor=") }
                .map { URLPercentEscaping.decodedBytes($0.dropFirst("cursor=".count)) }
            #expect(read == Array(cursor.utf8), "\(cursor.debugDescription)")
        }
    }

    @Test func aStyleThatCannotGoOnEndsWithInvalidURL() async throws {
        let transport = MockTransport()
        transport.stub(.get, "/items", with: .json([1, 2]))
        let networker = Networker(transport: transport)
        let endpoint = Endpoint(RequestDescription(route: "https://api.example.com/items"), decoding: [Int].self)
        struct NoNext: Error {}
        var iterator = networker.pages(endpoint, style: PageStyle { _ in throw NoNext() }).makeAsyncIterator()
        #expect(try await iterator.next() == [1, 2])
        await #expect(throws: StrataError.self) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }
}
