import Foundation
import HTTPTypes
import Testing

@testable import Strata
@testable import StrataCore

/// RFC 9111's rules as pure functions, on an injected clock.
@Suite struct CacheRulesTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT.
    static let t0 = Date(timeIntervalSince1970: 784_111_777)
    static let get = HTTPRequest(method: .get, scheme: "https", authority: "api.test", path: "/items?page=1")

    static func stored(
        _ fields: HTTPFields, status: HTTPResponse.Status = .ok, requestTime: Date = t0,
        responseTime: Date = t0
    ) -> CachedResponse {
        CachedResponse(
            head: HTTPResponse(status: status, headerFields: fields), body: Data("body".utf8),
            requestTime: requestTime, responseTime: responseTime)
    }

    @Test func freshnessLifetime() {
        #expect(
            Self.stored([.cacheControl: "max-age=60", .expires: "Sun, 06 Nov 1994 09:49:37 GMT"])
                .freshnessLifetime(heuristic: false) == 60)
        #expect(
            Self.stored([.date: "Sun, 06 Nov 1994 08:49:37 GMT", .expires: "Sun, 06 Nov 1994 08:50:37 GMT"])
                .freshnessLifetime(heuristic: false) == 60)
        #expect(Self.stored([.expires: "0"]).freshnessLifetime(heuristic: false) == 0)
        let lastModified: HTTPFields = [
            .date: "Sun, 06 Nov 1994 08:49:37 GMT", .lastModified: "Sun, 06 Nov 1994 08:32:57 GMT",
        ]
        #expect(Self.stored(lastModified).freshnessLifetime(heuristic: false) == 0)
        #expect(Self.stored(lastModified).freshnessLifetime(heuristic: true) == 100)  // 10% of 1000 s
        #expect(Self.stored(lastModified, status: .created).freshnessLifetime(heuristic: true) == 0)
        #expect(
            Self.stored([.date: "Sun, 06 Nov 1994 08:49:37 GMT", .lastModified: "Sun, 06 Nov 1984 08:49:37 GMT"])
                .freshnessLifetime(heuristic: true) == 86_400)
    }

    @Test func currentAge() {
        // Sent at t0, arrived 2 s later with Age 10 and a Date 1 s before t0.
        let stored = Self.stored(
            [.age: "10", .date: "Sun, 06 Nov 1994 08:49:36 GMT"],
            responseTime: Self.t0 + 2)
        // apparent age 3, corrected age 10 + 2 = 12; 5 s resident.
        #expect(stored.currentAge(at: Self.t0 + 7) == 17)
        #expect(Self.stored([:]).currentAge(at: Self.t0) == 0)
        #expect(Self.stored([.age: "junk"]).currentAge(at: Self.t0 + 1) == 1)
        #expect(Self.stored([:]).currentAge(at: Self.t0 - 100) == 0)  // a clock that went back
    }

    /// An `Age` that is not a whole number of seconds is ignored, as if there were none
    /// (RFC 9111 §4.2.3; the HTTP cache conformance tests' `age-parse-*` cases); a list, or
    /// two lines, count by the first member, and a parameter after the number is ignored.
    @Test(arguments: [
        (["abc"], CacheRules.Use.serve(isStale: false)),
        (["-7200"], .serve(isStale: false)),
        (["7200.0"], .serve(isStale: false)),
        (["7200, 0"], .revalidate),
        (["7200;foo=bar"], .revalidate),
        (["0, 7200"], .serve(isStale: false)),
        (["7200", "0"], .revalidate),
    ])
    func anAgeCountsByItsFirstNumberAndAnInvalidOneIsIgnored(lines: [String], expected: CacheRules.Use) {
        var fields: HTTPFields = [.cacheControl: "max-age=3600"]
        for line in lines { fields.append(HTTPField(name: .age, value: line)) }
        let stored = Self.stored(fields)
        #expect(CacheRules.use(of: stored, for: CacheControl(), at: Self.t0 + 1, heuristic: false) == expected)
        #expect(stored.freshnessLifetime(heuristic: false) == 3600)
        #expect(stored.currentAge(at: Self.t0 + 1) == (expected == .revalidate ? 7201 : 1))
    }

    @Test func anExpiresWithTwoSpacesIsInvalidAndOneInLowerCaseGMTCounts() {
        let date: HTTPFields = [.date: "Sun, 06 Nov 1994 08:49:37 GMT"]
        func lifetime(_ expires: String) -> Int {
            var fields = date
            fields[.expires] = expires
            return Self.stored(fields).freshnessLifetime(heuristic: false)
        }
        #expect(lifetime("Sun, 06 Nov 1994 08:50:37 GMT") == 60)
        #expect(lifetime("Sun, 06 Nov 1994  08:50:37 GMT") == 0)
        #expect(lifetime("Sun,  06 Nov 1994 08:50:37 GMT") == 0)
        #expect(lifetime("Sun, 06 Nov 1994 08:50:37 gmt") == 60)
        func use(_ expires: String) -> CacheRules.Use {
            var fields = date
            fields[.expires] = expires
            return CacheRules.use(of: Self.stored(fields), for: CacheControl(), at: Self.t0 + 1, heuristic: false)
        }
        #expect(use("Sun, 06 Nov 1994 08:50:37 gmt") == .serve(isStale: false))
        #expect(use("Sun, 06  Nov 1994 08:50:37 GMT") == .revalidate)
    }

    @Test func useOfAStoredResponse() {
        let none = CacheControl()
        let fresh = Self.stored([.cacheControl: "max-age=10"])
        #expect(CacheRules.use(of: fresh, for: none, at: Self.t0 + 9, heuristic: false) == .serve(isStale: false))
        #expect(CacheRules.use(of: fresh, for: none, at: Self.t0 + 10, heuristic: false) == .revalidate)
        #expect(
            CacheRules.use(of: fresh, for: CacheControl(parsing: "max-stale=5"), at: Self.t0 + 15, heuristic: false)
                == .serve(isStale: true))
        #expect(
            CacheRules.use(of: fresh, for: CacheControl(parsing: "max-stale=5"), at: Self.t0 + 16, heuristic: false)
                == .revalidate)
        #expect(
            CacheRules.use(of: fresh, for: CacheControl(parsing: "max-age=3"), at: Self.t0 + 4, heuristic: false)
                == .revalidate)
        #expect(
            CacheRules.use(of: fresh, for: CacheControl(parsing: "min-fresh=5"), at: Self.t0 + 6, heuristic: false)
                == .revalidate)
        #expect(
            CacheRules.use(of: fresh, for: CacheControl(parsing: "no-cache"), at: Self.t0, heuristic: false)
                == .revalidate)
        let noCache = Self.stored([.cacheControl: "no-cache, max-age=100"])
        #expect(CacheRules.use(of: noCache, for: none, at: Self.t0, heuristic: false) == .revalidate)
        let swr = Self.stored([.cacheControl: "max-age=10, stale-while-revalidate=20"])
        #expect(CacheRules.use(of: swr, for: none, at: Self.t0 + 30, heuristic: false) == .serveWhileRevalidating)
        #expect(CacheRules.use(of: swr, for: none, at: Self.t0 + 31, heuristic: false) == .revalidate)
        let mustRevalidate = Self.stored([.cacheControl: "max-age=10, must-revalidate, stale-while-revalidate=20"])
        #expect(
            CacheRules.use(
                of: mustRevalidate, for: CacheControl(parsing: "max-stale"), at: Self.t0 + 11, heuristic: false)
                == .revalidate)
    }

    @Test func staleIfError() {
        let stored = Self.stored([.cacheControl: "max-age=10, stale-if-error=60"])
        #expect(CacheRules.allowsStaleIfError(stored, for: CacheControl(), at: Self.t0 + 70, heuristic: false))
        #expect(!CacheRules.allowsStaleIfError(stored, for: CacheControl(), at: Self.t0 + 71, heuristic: false))
        #expect(
            CacheRules.allowsStaleIfError(
                Self.stored([.cacheControl: "max-age=10"]),
                for: CacheControl(parsing: "stale-if-error=5"), at: Self.t0 + 15, heuristic: false))
        #expect(
            !CacheRules.allowsStaleIfError(
                Self.stored([.cacheControl: "max-age=10, stale-if-error=60, must-revalidate"]),
                for: CacheControl(), at: Self.t0 + 11, heuristic: false))
    }

    @Test func storability() {
        func storable(_ request: HTTPRequest = Self.get, _ status: Int = 200, _ fields: HTTPFields = [:]) -> Bool {
            CacheRules.isStorable(request, HTTPResponse(status: .init(code: status), headerFields: fields))
        }
        #expect(storable())
        #expect(storable(Self.get, 404))
        #expect(!storable(Self.get, 201))
        #expect(storable(Self.get, 201, [.cacheControl: "max-age=5"]))
        #expect(storable(Self.get, 500, [.expires: "Sun, 06 Nov 1994 09:49:37 GMT"]))
        #expect(!storable(Self.get, 206, [.cacheControl: "max-age=5"]))
        #expect(!storable(Self.get, 304))
        #expect(!storable(Self.get, 200, [.cacheControl: "no-store, max-age=5"]))
        #expect(!storable(Self.get, 200, [.vary: "Accept, *"]))
        var noStoreRequest = Self.get
        noStoreRequest.headerFields[.cacheControl] = "no-store"
        #expect(!storable(noStoreRequest))
        var post = Self.get
        post.method = .post
        #expect(!storable(post, 200, [.cacheControl: "max-age=5"]))
        var authorized = Self.get
        authorized.headerFields[.authorization] = "Bearer t"
        #expect(!storable(authorized, 200, [.cacheControl: "max-age=60"]))
        #expect(!storable(authorized, 200, [.cacheControl: "private, max-age=60"]))
        #expect(storable(authorized, 200, [.cacheControl: "public, max-age=60"]))
        #expect(storable(authorized, 200, [.cacheControl: "s-maxage=60"]))
        #expect(storable(authorized, 200, [.cacheControl: "must-revalidate, max-age=60"]))
    }

    @Test func varyIsTheSecondaryKey() {
        var request = Self.get
        request.headerFields[.acceptLanguage] = " en "
        let response = HTTPResponse(status: .ok, headerFields: [.vary: "Accept-Language, accept-encoding"])
        let fields = CacheRules.variedFields(of: request, for: response)
        #expect(fields == ["accept-language": "en", "accept-encoding": ""])
        let stored = CachedResponse(
            head: response, body: Data(), requestTime: Self.t0, responseTime: Self.t0,
            variedFields: fields ?? [:])
        #expect(CacheRules.matches(stored, request))
        request.headerFields[.acceptLanguage] = "de"
        #expect(!CacheRules.matches(stored, request))
        let star = CachedResponse(
            head: HTTPResponse(status: .ok, headerFields: [.vary: "*"]), body: Data(),
            requestTime: Self.t0, responseTime: Self.t0)
        #expect(!CacheRules.matches(star, Self.get))
    }

    @Test func conditionalRequests() {
        let both = Self.stored([.eTag: "\"v1\"", .lastModified: "Sun, 06 Nov 1994 08:00:00 GMT"])
        let conditional = CacheRules.conditional(Self.get, on: both)
        #expect(conditional?.headerFields[.ifNoneMatch] == "\"v1\"")
        #expect(conditional?.headerFields[.ifModifiedSince] == "Sun, 06 Nov 1994 08:00:00 GMT")
        #expect(conditional?.path == "/items?page=1")
        #expect(CacheRules.conditional(Self.get, on: Self.stored([.cacheControl: "max-age=1"])) == nil)
    }

    @Test func notModifiedUpdatesTheStoredFields() throws {
        let stored = Self.stored([
            .eTag: "\"v1\"", .cacheControl: "max-age=10", .contentLength: "4", .contentType: "text/plain",
        ])
        let notModified = HTTPResponse(
            status: .notModified,
            headerFields: [
                .eTag: "W/\"v1\"", .cacheControl: "max-age=99", .contentLength: "0", .connection: "close",
                .init("X-New")!: "yes",
            ])
        let updated = try #require(
            CacheRules.revalidated(
                stored, by: notModified, requestTime: Self.t0 + 50,
                responseTime: Self.t0 + 51))
        #expect(updated.head.status == .ok)
        #expect(updated.head.headerFields[.cacheControl] == "max-age=99")
        #expect(updated.head.headerFields[.contentLength] == "4")
        #expect(updated.head.headerFields[.contentType] == "text/plain")
        #expect(updated.head.headerFields[.connection] == nil)
        #expect(updated.head.headerFields[.init("X-New")!] == "yes")
        #expect(updated.body == Data("body".utf8))
        #expect(updated.responseTime == Self.t0 + 51)
        let otherTag = HTTPResponse(status: .notModified, headerFields: [.eTag: "\"v2\""])
        #expect(CacheRules.revalidated(stored, by: otherTag, requestTime: Self.t0, responseTime: Self.t0) == nil)
    }

    @Test func aHeadResponseFreshensOnlyAStoredResponseItStillDescribes() throws {
        let stored = Self.stored([.eTag: "\"v1\"", .cacheControl: "max-age=10", .contentLength: "4"])
        let head = HTTPResponse(
            status: .ok, headerFields: [.eTag: "\"v1\"", .cacheControl: "max-age=99", .contentLength: "4"])
        let updated = try #require(
            CacheRules.freshened(stored, byHead: head, requestTime: Self.t0 + 50, responseTime: Self.t0 + 51))
        #expect(updated.head.headerFields[.cacheControl] == "max-age=99")
        #expect(updated.freshnessLifetime(heuristic: false) == 99)  // the parsed fields follow the head
        #expect(updated.currentAge(at: Self.t0 + 51) == 1)
        #expect(updated.body == Data("body".utf8))

        let otherTag = HTTPResponse(status: .ok, headerFields: [.eTag: "\"v2\"", .contentLength: "4"])
        #expect(CacheRules.freshened(stored, byHead: otherTag, requestTime: Self.t0, responseTime: Self.t0) == nil)
        let otherLength = HTTPResponse(status: .ok, headerFields: [.eTag: "\"v1\"", .contentLength: "5"])
        #expect(CacheRules.freshened(stored, byHead: otherLength, requestTime: Self.t0, responseTime: Self.t0) == nil)
        let noValidators = HTTPResponse(status: .ok, headerFields: [.cacheControl: "max-age=99"])
        #expect(
            CacheRules.freshened(Self.stored([:]), byHead: noValidators, requestTime: Self.t0, responseTime: Self.t0)
                == nil)
        let modified = Self.stored([.lastModified: "Sun, 06 Nov 1994 08:00:00 GMT"])
        let sameDate = HTTPResponse(status: .ok, headerFields: [.lastModified: "Sun, 06 Nov 1994 08:00:00 GMT"])
        #expect(CacheRules.freshened(modified, byHead: sameDate, requestTime: Self.t0, responseTime: Self.t0) != nil)
    }

    @Test func unsafeMethodsInvalidate() {
        var post = HTTPRequest(method: .post, scheme: "https", authority: "API.test:443", path: "/items")
        let created = HTTPResponse(
            status: .created,
            headerFields: [
                .location: "/items/7", .contentLocation: "https://other.test/items/7",
            ])
        #expect(
            CacheRules.invalidatedKeys(post, created).map(\.description)
                == [
                    "GET https://api.test/items", "GET https://api.test/items#bytes", "GET https://api.test/items/7",
                    "GET https://api.test/items/7#bytes",
                ])
        #expect(CacheRules.invalidatedKeys(post, HTTPResponse(status: .badRequest)).isEmpty)
        post.method = .get
        #expect(CacheRules.invalidatedKeys(post, created).isEmpty)
    }

    @Test func keysAreNormalised() {
        let key = CacheKey(method: "GET", scheme: "HTTPS", authority: "Api.Test:443", path: "/A?b=1&a=2")
        #expect(key?.uri == "https://api.test/A?b=1&a=2")
        #expect(CacheKey(method: "GET", scheme: "http", authority: "h:0080", path: "")?.uri == "http://h/")
        #expect(CacheKey(method: "GET", scheme: "http", authority: "h:8080", path: "?q")?.uri == "http://h:8080/?q")
        #expect(CacheKey(method: "GET", scheme: "https", authority: "[::1]:443", path: "/")?.uri == "https://[::1]/")
        #expect(CacheKey(method: "GET", scheme: "https", authority: "U@H", path: "/")?.uri == "https://U@h/")
        #expect(CacheKey(method: "GET", scheme: nil, authority: "h", path: "/") == nil)
        #expect(
            CacheKey(HTTPRequest(method: .get, scheme: "https", authority: "a.test", path: "/x?B"))
                != CacheKey(HTTPRequest(method: .get, scheme: "https", authority: "a.test", path: "/x?b")))
    }
}
