import Foundation
import Testing
@testable import Strata

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
        let request = RequestDescription(route: route, parameters: ["q": "100%#[x]"] as JSON,
                                         encoding: .urlQuery(encoder))
        #expect(try request.encoded().head.url?.absoluteString == "https://x.io/s?lang=en&q=100%25%23%5Bx%5D")
    }

    @Test func appendingAQueryWithLonePercentDoesNotTrap() throws {
        let url = try #require(URL(string: "https://x.io/s"))
        let result = try RequestDescription<URL>.appendingQuery("a=100%&b=%zz", to: url)
        #expect(result.absoluteString == "https://x.io/s?a=100%25&b=%25zz")
    }
}
