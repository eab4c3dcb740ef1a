import Foundation
import HTTPTypes
import PropertyBased
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// `Range` fields are caller data and `Content-Range` fields server data: any text reads
/// as a range or as `nil`, never a crash, and what the cache answers from them is always
/// the bytes its `Content-Range` names.
@Suite(.runsAlone) struct ByteRangePropertyTests {
    static let fields = Generator<String, Shrink.None<String>> { rng in field(using: &rng) }

    static func field(using rng: inout some RandomNumberGenerator) -> String {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return PropertyGen.string(length: 0...20, using: &rng)
        case 1: return "bytes=\(number(using: &rng))-\(number(using: &rng))"
        case 2:
            let length = Bool.random(using: &rng) ? "*" : number(using: &rng)
            return "bytes \(number(using: &rng))-\(number(using: &rng))/\(length)"
        default: return "bytes */\(number(using: &rng))"
        }
    }

    static func number(using rng: inout some RandomNumberGenerator) -> String {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: String(Int.random(in: 0...12, using: &rng))
        case 1: String(UInt64.random(in: 0 ... .max, using: &rng))
        case 2: ""
        default: String(Int64.max)
        }
    }

    @Test func anyFieldReadsOrIsNil() async {
        await propertyCheck(count: 3000, input: Self.fields) { field in
            if let range = ByteRange(field) {
                for length in [Int64(0), 1, 10, Int64.max] {
                    if let resolved = range.resolved(length: length) {
                        #expect(resolved.lowerBound >= 0 && resolved.upperBound < length, "\(field) of \(length)")
                    }
                }
            }
            if let contentRange = ContentRange(field) {
                #expect(ContentRange(contentRange.description) == contentRange, "\(field)")
            }
        }
    }

    /// An origin answers each `Range` with a `206` whose `Content-Range` is random text
    /// and whose body is 0–12 bytes: whatever the cache stores and serves, a `206` it
    /// answers holds exactly the bytes its `Content-Range` says.
    @Test func theCacheAnswersOnlyWhatItHolds() async throws {
        let pairs = Generator<(String, String), Shrink.None<(String, String)>> { rng in
            (Self.field(using: &rng), Self.field(using: &rng))
        }
        let store = MemoryCacheStore()
        await propertyCheck(count: 1000, input: pairs) { pair in
            let (range, contentRange) = pair
            let body = String("0123456789ab".prefix(contentRange.count % 13))
            let transport = ClosureTransport { _, _, _ in
                (
                    HTTPResponse(
                        status: .partialContent,
                        headerFields: [.contentRange: contentRange, .eTag: "\"v\"", .cacheControl: "max-age=60"]),
                    MessageBody(body)
                )
            }
            let networker = Networker(transport: transport, middleware: [CacheMiddleware(store: store)])
            let endpoint = Endpoint<Data>(RequestDescription(route: "https://api.test/file"))
                .header(.range, range).validation(ResponseValidation(statusCodes: Array(200..<600)))
            guard let response = try? await networker.response(for: endpoint) else { return }
            guard response.head.status == .partialContent, response.body != Data(body.utf8),
                let served = ContentRange(response.head.headerFields[.contentRange])?.range
            else { return }
            #expect(Int64(response.body.count) == Int64(served.count), "\(range) / \(contentRange)")
        }
    }
}
