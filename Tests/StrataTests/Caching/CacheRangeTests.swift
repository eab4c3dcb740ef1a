import Foundation
import HTTPTypes
import Testing

@testable import Strata
@testable import StrataCore

/// Byte ranges through the cache (RFC 9111 §3.3–3.4, RFC 9110 §14): answered from a stored
/// complete response or part, parts stored and combined only under the same strong
/// `ETag`, `If-Range` honoured; exact bodies, `Content-Range` fields and request counts.
@Suite struct CacheRangeTests {
    typealias Setup = CacheMiddlewareTests.Setup

    /// A file server's answers over `content` (its `ETag` is `"v<version>"`): a `206` for
    /// one range whose `If-Range` (if any) matches, a `416` past the end, else the whole.
    final class File: Sendable {
        let state = Locked((content: "0123456789", version: 1))
        let cacheControl: String

        init(cacheControl: String = "max-age=60") {
            self.cacheControl = cacheControl
        }

        func change(to content: String) {
            state.withLock {
                $0.content = content
                $0.version += 1
            }
        }

        func respond(_ request: HTTPRequest) -> CacheMiddlewareTests.Origin.Reply {
            var reply = reply(to: request)
            reply.fields[.contentLength] = String(reply.body.utf8.count)
            return reply
        }

        private func reply(to request: HTTPRequest) -> CacheMiddlewareTests.Origin.Reply {
            let (content, version) = state.withLock { ($0.content, $0.version) }
            let bytes = Array(content.utf8)
            let etag = "\"v\(version)\""
            var fields: HTTPFields = [.cacheControl: cacheControl, .eTag: etag]
            let ifRange = request.headerFields[.ifRange]
            guard let range = ByteRange(request.headerFields[.range]), ifRange == nil || ifRange == etag
            else { return (200, fields, content) }
            guard let wanted = range.resolved(length: Int64(bytes.count)) else {
                fields[.contentRange] = "bytes */\(bytes.count)"
                return (416, fields, "")
            }
            fields[.contentRange] = "bytes \(wanted.lowerBound)-\(wanted.upperBound)/\(bytes.count)"
            return (
                206, fields, String(decoding: bytes[Int(wanted.lowerBound)...Int(wanted.upperBound)], as: UTF8.self)
            )
        }
    }

    /// What a call came to: the status, `Content-Range`, `Content-Length` and body.
    struct Answer: Equatable, CustomStringConvertible {
        var status: Int
        var contentRange: String?
        var contentLength: String?
        var body: String
        var description: String { "\(status) \(contentRange ?? "-") \(contentLength ?? "-") \(body)" }
    }

    static func setUp(_ file: File) -> Setup {
        Setup { request, _ in file.respond(request) }
    }

    static func load(_ setup: Setup, range: String? = nil, ifRange: String? = nil) async throws -> Answer {
        var endpoint = CacheMiddlewareTests.items.validation(ResponseValidation(statusCodes: [200, 206, 416]))
        if let range { endpoint = endpoint.header(.range, range) }
        if let ifRange { endpoint = endpoint.header(.ifRange, ifRange) }
        let response = try await setup.networker.response(for: endpoint)
        let fields = response.head.headerFields
        return Answer(
            status: response.head.status.code, contentRange: fields[.contentRange],
            contentLength: fields[.contentLength], body: response.value)
    }

    @Test func rangesAreAnsweredFromAStoredCompleteResponse() async throws {
        let setup = Self.setUp(File())
        #expect(try await Self.load(setup) == Answer(status: 200, contentLength: "10", body: "0123456789"))
        #expect(try await Self.load(setup, range: "bytes=2-5") == Answer(status: 206, "bytes 2-5/10", "4", "2345"))
        #expect(try await Self.load(setup, range: "bytes=7-") == Answer(status: 206, "bytes 7-9/10", "3", "789"))
        #expect(try await Self.load(setup, range: "bytes=-4") == Answer(status: 206, "bytes 6-9/10", "4", "6789"))
        #expect(try await Self.load(setup, range: "bytes=8-100") == Answer(status: 206, "bytes 8-9/10", "2", "89"))
        #expect(try await Self.load(setup, range: "bytes=10-") == Answer(status: 416, "bytes */10", "0", ""))
        #expect(setup.origin.count == 1)
    }

    /// Several ranges, or a range that does not parse, go to the origin untouched.
    @Test func rangesTheCacheDoesNotReadGoToTheOrigin() async throws {
        let setup = Self.setUp(File())
        _ = try await Self.load(setup)
        #expect(try await Self.load(setup, range: "bytes=0-1,4-5").status == 200)
        #expect(try await Self.load(setup, range: "bytes=5-2").status == 200)
        #expect(setup.origin.count == 3)
        #expect(setup.origin.last?.headerFields[.range] == "bytes=5-2")
    }

    @Test func aStaleResponseSendsTheRangeOn() async throws {
        let setup = Self.setUp(File())
        _ = try await Self.load(setup)
        setup.clock.advance(120)
        #expect(try await Self.load(setup, range: "bytes=2-5") == Answer(status: 206, "bytes 2-5/10", "4", "2345"))
        #expect(setup.origin.count == 2)
        #expect(setup.origin.last?.headerFields[.range] == "bytes=2-5")
    }

    /// Two parts of the same version that touch become the complete response, which then
    /// answers a plain `GET`; a part answers the ranges it holds.
    @Test func partsAreCombinedIntoTheCompleteResponse() async throws {
        let setup = Self.setUp(File())
        #expect(try await Self.load(setup, range: "bytes=0-3") == Answer(status: 206, "bytes 0-3/10", "4", "0123"))
        #expect(try await Self.load(setup, range: "bytes=1-2") == Answer(status: 206, "bytes 1-2/10", "2", "12"))
        #expect(setup.origin.count == 1)
        #expect(try await Self.load(setup, range: "bytes=3-6") == Answer(status: 206, "bytes 3-6/10", "4", "3456"))
        #expect(setup.origin.count == 2)
        #expect(try await Self.load(setup, range: "bytes=0-6") == Answer(status: 206, "bytes 0-6/10", "7", "0123456"))
        #expect(try await Self.load(setup, range: "bytes=7-") == Answer(status: 206, "bytes 7-9/10", "3", "789"))
        #expect(setup.origin.count == 3)
        #expect(try await Self.load(setup) == Answer(status: 200, contentLength: "10", body: "0123456789"))
        #expect(try await Self.load(setup, range: "bytes=-2") == Answer(status: 206, "bytes 8-9/10", "2", "89"))
        #expect(setup.origin.count == 3)
        let key = try #require(setup.origin.last.flatMap(CacheKey.init))
        #expect(try await setup.store.variants(for: key.forPartial).isEmpty)
    }

    /// A part of another version is never spliced onto the stored one: it replaces it.
    @Test func partsOfDifferentVersionsAreNotCombined() async throws {
        let file = File()
        let setup = Self.setUp(file)
        _ = try await Self.load(setup, range: "bytes=0-4")
        file.change(to: "abcdefghij")
        #expect(try await Self.load(setup, range: "bytes=5-") == Answer(status: 206, "bytes 5-9/10", "5", "fghij"))
        #expect(try await Self.load(setup, range: "bytes=0-4") == Answer(status: 206, "bytes 0-4/10", "5", "abcde"))
        #expect(setup.origin.count == 3)
        #expect(try await Self.load(setup) == Answer(status: 200, contentLength: "10", body: "abcdefghij"))
        #expect(setup.origin.count == 3)
    }

    /// `If-Range` with the stored strong `ETag` or `Last-Modified` is answered from the
    /// cache; another validator, or a weak `ETag`, goes to the origin.
    @Test func ifRangeChoosesTheStoredResponseOnlyWhenItMatches() async throws {
        let setup = Self.setUp(File())
        _ = try await Self.load(setup)
        #expect(try await Self.load(setup, range: "bytes=0-1", ifRange: "\"v1\"").body == "01")
        #expect(setup.origin.count == 1)
        #expect(try await Self.load(setup, range: "bytes=0-1", ifRange: "\"v0\"").status == 200)
        #expect(try await Self.load(setup, range: "bytes=0-1", ifRange: "W/\"v1\"").status == 200)
        #expect(setup.origin.count == 3)
    }

    /// A part with a weak `ETag`, or none, is not stored: the same range goes out again.
    @Test func aPartWithoutAStrongETagIsNotStored() async throws {
        let setup = Setup { request, _ in
            let weak = request.headerFields[.range] == "bytes=0-1"
            var fields: HTTPFields = [.cacheControl: "max-age=60", .contentRange: "bytes 0-1/10"]
            if weak { fields[.eTag] = "W/\"v1\"" }
            return (206, fields, "01")
        }
        _ = try await Self.load(setup, range: "bytes=0-1")
        _ = try await Self.load(setup, range: "bytes=0-1")
        _ = try await Self.load(setup, range: "bytes=0-1,2-3")
        _ = try await Self.load(setup, range: "bytes=0-1,2-3")
        #expect(setup.origin.count == 4)
    }

    @Test func rangeFieldsParse() {
        #expect(ByteRange("bytes=0-499") == .from(0, through: 499))
        #expect(ByteRange(" Bytes=9500- ") == .from(9500, through: nil))
        #expect(ByteRange("bytes=-500") == .suffix(500))
        for invalid in ["bytes=5-1", "bytes=0-1,3-4", "items=0-1", "bytes=-", "bytes=a-1", "bytes=1", "bytes=+1-2"] {
            #expect(ByteRange(invalid) == nil, "\(invalid)")
        }
        #expect(ByteRange.suffix(0).resolved(length: 10) == nil)
        #expect(ByteRange.suffix(20).resolved(length: 10) == 0...9)
        #expect(ContentRange("bytes 0-1/10") == ContentRange(0...1, of: 10))
        #expect(ContentRange("bytes 0-1/*") == ContentRange(0...1, of: nil))
        #expect(ContentRange("bytes */10") == ContentRange(nil, of: 10))
        for invalid in ["bytes 5-1/10", "bytes 0-10/10", "bytes */*", "bytes 0-1", "bits 0-1/2", "bytes -1-2/3"] {
            #expect(ContentRange(invalid) == nil, "\(invalid)")
        }
    }
}

extension CacheRangeTests.Answer {
    init(status: Int, _ contentRange: String, _ contentLength: String, _ body: String) {
        self.init(status: status, contentRange: contentRange, contentLength: contentLength, body: body)
    }

    init(status: Int, contentLength: String?, body: String) {
        self.init(status: status, contentRange: nil, contentLength: contentLength, body: body)
    }
}
