import Foundation
import HTTPTypes
import Testing

@testable import Strata
@testable import StrataCore

/// The `Set-Cookie` parser (RFC 6265bis §5.6) and its dates (§5.1.1), case by case.
@Suite struct SetCookieParsingTests {
    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)!
    }

    @Test func aNameAndValueWithAttributes() throws {
        let parsed = try #require(
            SetCookie("SID=31d4d96e407aad42; Path=/docs; Domain=.Example.COM; Secure; HttpOnly; SameSite=Lax"))
        #expect(parsed.name == "SID")
        #expect(parsed.value == "31d4d96e407aad42")
        #expect(parsed.path == "/docs")
        #expect(parsed.domain == "example.com")
        #expect(parsed.isSecure)
        #expect(parsed.isHTTPOnly)
        #expect(parsed.sameSite == .lax)
    }

    @Test(arguments: [
        // field, name, value
        ("a=b", "a", "b"),
        (" a = b ;", "a", "b"),
        ("a=\"quoted value\"", "a", "\"quoted value\""),  // quotes belong to the value
        ("a=b=c", "a", "b=c"),  // the first `=` splits
        ("nameless", "", "nameless"),  // no `=`: a nameless cookie
        ("=value", "", "value"),
        ("a=", "a", ""),
        ("a=\tb\t", "a", "b"),
        ("ключ=значение", "ключ", "значение"),
    ])
    func namesAndValues(field: String, name: String, value: String) throws {
        let parsed = try #require(SetCookie(field))
        #expect(parsed.name == name)
        #expect(parsed.value == value)
    }

    @Test(arguments: [
        "", "=", " ; Path=/", "a=b\u{0}c", "a=b\nc", "a=b\r", "a=\u{7F}",
        String(repeating: "n", count: 2000) + "=" + String(repeating: "v", count: 2097),
    ])
    func fieldsTheRFCIgnores(field: String) {
        #expect(SetCookie(field) == nil)
    }

    @Test func aNameAndValueOfExactly4096BytesIsKept() throws {
        let field = String(repeating: "n", count: 2000) + "=" + String(repeating: "v", count: 2096)
        #expect(try #require(SetCookie(field)).value.utf8.count == 2096)
    }

    @Test func attributesWithoutValuesUnknownOnesAndTheLastOfEachKind() throws {
        let parsed = try #require(
            SetCookie(
                "a=b; secure=ignored-value; HTTPONLY; Unknown=1; Path=/one; Path=/two; Domain=a.com; Domain=b.com"))
        #expect(parsed.isSecure)
        #expect(parsed.isHTTPOnly)
        #expect(parsed.path == "/two")
        #expect(parsed.domain == "b.com")
    }

    @Test func aPathThatIsNotAbsoluteAndAnEmptyDomainAreIgnored() throws {
        let parsed = try #require(SetCookie("a=b; Path=/kept; Path=relative; Domain=example.com; Domain="))
        #expect(parsed.path == nil)  // the last Path wins, and it is not absolute: the default path
        #expect(parsed.domain == "example.com")  // an empty Domain is ignored
    }

    @Test func anAttributeValueOver1024BytesIsSkipped() throws {
        let parsed = try #require(SetCookie("a=b; Path=/short; Path=/" + String(repeating: "x", count: 1024)))
        #expect(parsed.path == "/short")
    }

    @Test(arguments: [
        ("3600", 3600), ("0", 0), ("-1", -1), ("99999999999999999999999", Int.max), ("-99999999999999999999", Int.min),
    ])
    func maxAgeNumbers(text: String, seconds: Int) throws {
        #expect(try #require(SetCookie("a=b; Max-Age=\(text)")).maxAge == seconds)
    }

    @Test(arguments: ["", "1.5", "+3", "ten", "1 0", "-"])
    func maxAgeThatIsNoNumberIsIgnored(text: String) throws {
        #expect(try #require(SetCookie("a=b; Max-Age=\(text)")).maxAge == nil)
    }

    @Test(arguments: [
        ("strict", Cookie.SameSite.strict), ("LAX", .lax), ("None", .none), ("", .unspecified), ("bogus", .unspecified),
    ])
    func sameSiteValues(text: String, sameSite: Cookie.SameSite) throws {
        #expect(try #require(SetCookie("a=b; SameSite=\(text)")).sameSite == sameSite)
    }

    // MARK: Dates (§5.1.1)

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", "1994-11-06T08:49:37Z"),  // RFC 1123
        ("Sunday, 06-Nov-94 08:49:37 GMT", "1994-11-06T08:49:37Z"),  // RFC 850, two-digit year
        ("Sun Nov  6 08:49:37 1994", "1994-11-06T08:49:37Z"),  // asctime
        ("Wed, 09 Jun 2021 10:18:14 GMT", "2021-06-09T10:18:14Z"),
        ("09 Jun 2021 10:18:14", "2021-06-09T10:18:14Z"),  // no weekday, no zone
        ("Thu, 01-Jan-70 00:00:01 GMT", "1970-01-01T00:00:01Z"),  // 70 is 1970
        ("Tue, 01 Jan 69 00:00:00 GMT", "2069-01-01T00:00:00Z"),  // 69 is 2069
        ("Mon, 1 January 2024 9:5:3 GMT", "2024-01-01T09:05:03Z"),  // long month, one-digit fields
        ("2024 dec 31 23:59:59", "2024-12-31T23:59:59Z"),  // any order
        ("Fri, 29 Feb 2028 12:00:00 GMT", "2028-02-29T12:00:00Z"),
    ])
    func datesInEveryFormServersSend(text: String, iso: String) {
        #expect(CookieDate.parse(text) == Self.date(iso))
    }

    @Test(arguments: [
        "", "tomorrow", "Sun, 06 Nov 1994", "06 Nov 1994 24:00:00", "32 Nov 1994 08:49:37", "31 Feb 2023 08:00:00",
        "29 Feb 2023 08:00:00", "06 Nov 1600 08:49:37", "06 Nov 1994 08:60:00", "06 Nov 1994 08:49:100",
        "06 Smarch 1994 08:49:37",
    ])
    func textsThatAreNoDate(text: String) {
        #expect(CookieDate.parse(text) == nil)
    }

    @Test func anExpiresThatIsNoDateIsIgnored() throws {
        #expect(try #require(SetCookie("a=b; Expires=soon")).expires == nil)
        #expect(
            try #require(SetCookie("a=b; Expires=Wed, 09 Jun 2021 10:18:14 GMT")).expires
                == Self.date("2021-06-09T10:18:14Z"))
    }

    // MARK: Fields a transport joined with commas

    @Test(arguments: [
        (
            "a=1; Path=/, b=2; Expires=Wed, 09 Jun 2021 10:18:14 GMT; HttpOnly,c=3",
            ["a=1; Path=/", "b=2; Expires=Wed, 09 Jun 2021 10:18:14 GMT; HttpOnly", "c=3"]
        ),
        ("a=1", ["a=1"]),
        ("a=b,c", ["a=b,c"]),  // no `=` after the comma: one value
        ("a=1; Expires=Sunday, 06-Nov-94 08:49:37 GMT", ["a=1; Expires=Sunday, 06-Nov-94 08:49:37 GMT"]),
        (" , a=1 ,  b=2 ", ["a=1", "b=2"]),
        ("", []),
    ])
    func joinedSetCookieFieldsAreSplitAgain(value: String, fields: [String]) {
        #expect(HTTPFields.splitJoinedSetCookie(value) == fields)
    }
}
