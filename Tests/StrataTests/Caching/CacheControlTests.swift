import Foundation
import HTTPTypes
import Testing

@testable import Strata
@testable import StrataCore

/// `Cache-Control` and HTTP dates, read as RFC 9111 and RFC 9110 say, with exact values.
@Suite struct CacheControlTests {
    @Test func responseDirectives() {
        let directives = CacheControl(
            parsing: "Public, MAX-AGE=60, must-revalidate, stale-while-revalidate=30, stale-if-error=\"600\"")
        #expect(directives.isPublic)
        #expect(directives.maxAge == 60)
        #expect(directives.mustRevalidate)
        #expect(directives.staleWhileRevalidate == 30)
        #expect(directives.staleIfError == 600)
        #expect(!directives.noCache && !directives.noStore && !directives.isPrivate)
    }

    @Test func requestDirectives() {
        let directives = CacheControl(parsing: "max-stale, min-fresh=5, only-if-cached, no-cache")
        #expect(directives.maxStale == Int.max)
        #expect(directives.minFresh == 5)
        #expect(directives.onlyIfCached)
        #expect(directives.noCache)
        #expect(CacheControl(parsing: "max-stale=9").maxStale == 9)
    }

    @Test func badInputFollowsTheRFC() {
        #expect(CacheControl(parsing: "max-age=soon").maxAge == 0)  // invalid freshness: stale
        #expect(CacheControl(parsing: "max-age=10, max-age=99").maxAge == 10)  // first occurrence
        #expect(CacheControl(parsing: "max-age=99999999999999999999").maxAge == CacheControl.maxDeltaSeconds)
        #expect(CacheControl(parsing: "max-age=-1").maxAge == 0)
        #expect(CacheControl(parsing: "stale-if-error=x").staleIfError == nil)
        #expect(
            CacheControl(parsing: "private=\"a, no-store\", max-age=3")
                == {
                    var expected = CacheControl()
                    expected.isPrivate = true
                    expected.maxAge = 3
                    return expected
                }())
        #expect(CacheControl(parsing: ",, ,=,") == CacheControl())
        #expect(CacheControl(parsing: "no-cache=\"Set-Cookie\"").noCache)
    }

    @Test func fieldsAreJoined() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .cacheControl, value: "no-store"))
        fields.append(HTTPField(name: .cacheControl, value: "max-age=5"))
        let directives = CacheControl(fields)
        #expect(directives.noStore)
        #expect(directives.maxAge == 5)
    }

    @Test func httpDatesInAllThreeForms() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.parse("Sun Nov 6 08:49:37 1994") == expected)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 gmt") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 Gmt") == expected)
        // One space between words (asctime's padded day aside).
        #expect(HTTPDate.parse("Sun, 06 Nov 1994  08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun,  06 Nov 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT ") == nil)
        #expect(HTTPDate.parse("Sun Nov  16 08:49:37 1994") == nil)
        #expect(HTTPDate.parse("Sunday,  06-Nov-94 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Sat, 29 Feb 2025 00:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 24:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 UTC") == nil)
        #expect(HTTPDate.parse("0") == nil)
        #expect(HTTPDate.parse("") == nil)
    }
}
