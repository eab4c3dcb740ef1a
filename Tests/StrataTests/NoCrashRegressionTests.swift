import Foundation
import HTTPTypes
import StrataTesting
import Testing

@testable import Strata
@testable import StrataCore

/// Inputs that used to trap the process (a Foundation precondition, SIGILL) instead of
/// throwing or escaping: each one is now escaped into a valid URL.
@Suite struct URLEscapingRegressionTests {
    private let base = URL(string: "https://x.io")

    @Test func lonePercentInThePathIsEscaped() throws {
        let id = "100%"
        #expect(try (base + "/user/\(id)").absoluteString == "https://x.io/user/100%25")
    }

    @Test func percentNotFollowedByTwoHexDigitsIsEscaped() throws {
        #expect(try (base + "/a%2").absoluteString == "https://x.io/a%252")
        #expect(try (base + "/a%zz").absoluteString == "https://x.io/a%25zz")
        #expect(try (base + "/a%2Fb%").absoluteString == "https://x.io/a%2Fb%25")
    }

    @Test func spacesAndBracketsInTheQueryAreEscaped() throws {
        let url = try base + "/search?q=Ann Lee&ids=[1,2]"
        #expect(url.absoluteString == "https://x.io/search?q=Ann%20Lee&ids=%5B1,2%5D")
    }

    @Test func hashAndLonePercentInTheQueryAreEscaped() throws {
        let url = try base + "/s?q=a#b&p=50%&e=%C3%A9"
        #expect(url.absoluteString == "https://x.io/s?q=a%23b&p=50%25&e=%C3%A9")
    }

    @Test func hashAndQuestionMarkInThePathAreEscaped() throws {
        #expect(try (base + "/a#b").absoluteString == "https://x.io/a%23b")
        #expect(try (base + "/a?b?c").absoluteString == "https://x.io/a?b?c")
    }

    @Test func controlAndNonASCIICharactersAreEscaped() throws {
        #expect(try (base + "/a\u{0}\u{7F}\r\nb").absoluteString == "https://x.io/a%00%7F%0D%0Ab")
        #expect(try (base + "/é?q=é ").absoluteString == "https://x.io/%C3%A9?q=%C3%A9%20")
    }

    @Test func queryEncoderOutputWithRawPercentDoesNotTrap() throws {
        var allowed = CharacterSet.strataURLQueryAllowed
        allowed.insert(charactersIn: "%#[]")
        let encoder = URLEncodedFormEncoder(allowedCharacters: allowed)
        let route = try base + "/s?lang=en"
        let request = RequestDescription(
            route: route, parameters: ["q": "100%#[x]"] as JSON,
            encoding: .urlQuery(encoder))
        #expect(try request.encoded().head.url?.absoluteString == "https://x.io/s?lang=en&q=100%25%23%5Bx%5D")
    }

    @Test func appendingAQueryWithLonePercentDoesNotTrap() throws {
        let url = try #require(URL(string: "https://x.io/s"))
        let result = try RequestDescription<URL>.appendingQuery("a=100%&b=%zz", to: url)
        #expect(result.absoluteString == "https://x.io/s?a=100%25&b=%25zz")
    }
}

/// Stubs that did not match the request a route builds from the same text.
@Suite struct MockStubMatchingRegressionTests {
    private static func status(of target: String, stub: String, query: [String: String] = [:]) async throws
        -> HTTPResponse.Status?
    {
        let mock = MockTransport()
        mock.stub(.get, stub, query: query, with: .status(.accepted))
        let request = HTTPRequest(method: .get, scheme: "https", authority: "x.io", path: target)
        do {
            return try await mock.send(request, body: nil, deadline: nil).0.status
        } catch MockTransportError.noStub {
            return nil
        }
    }

    @Test func aLonePercentNextToAnEscapeMatchesItsEscapedForm() async throws {
        // `removingPercentEncoding` gave up on "a%41%" and compared it undecoded.
        let target = try #require(try HTTPRequest(method: .get, url: URL(string: "https://x.io") + "/f/a%41%").path)
        #expect(target == "/f/a%41%25")
        #expect(try await Self.status(of: target, stub: "/f/a%41%") == .accepted)
        #expect(try await Self.status(of: "/f/aA%25", stub: "/f/a%41%") == .accepted)
    }

    @Test func aLeadingByteOrderMarkIsKept() async throws {
        // `removingPercentEncoding` dropped a leading U+FEFF.
        #expect(try await Self.status(of: "/s?q=%EF%BB%BFx", stub: "/s", query: ["q": "\u{FEFF}x"]) == .accepted)
        #expect(try await Self.status(of: "/s?q=x", stub: "/s", query: ["q": "\u{FEFF}x"]) == nil)
    }

    @Test func delimitersFollowedByCombiningMarksStillSplit() async throws {
        // "/\u{301}" is one Character, so splitting on Characters missed the slash.
        #expect(try await Self.status(of: "/lit/%CC%81", stub: "/lit/\u{301}") == .accepted)
        #expect(try await Self.status(of: "/s?q=%CC%81", stub: "/s?q=\u{301}") == .accepted)
    }
}

/// A route whose URL has no scheme used to trap inside `HTTPRequest(url:)`.
@Suite struct SchemelessURLRegressionTests {
    @Test func relativeURLIsARouteErrorNotATrap() async throws {
        let relative = try #require(URL(string: "/relative"))
        #expect(throws: URLRouteError.invalidURL(base: "/relative", path: "")) {
            try RequestDescription(route: relative).encoded()
        }
        #expect(throws: URLRouteError.self) { try Endpoint<Data>(RequestDescription(route: relative)).encoded() }
        let error = await #expect(throws: StrataError.self) {
            try await Networker(transport: MockTransport()).send(Endpoint<Data>(RequestDescription(route: relative)))
        }
        #expect(error?.kind == .invalidURL)
    }
}
