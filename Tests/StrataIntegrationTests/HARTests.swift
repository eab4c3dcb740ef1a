import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import Strata
import StrataTestServer
import StrataTesting
import Testing

/// HAR recordings made of the in-process server over both transports: valid HAR 1.2
/// with no credential in them, replayed through a ``Networker`` into the same decoded
/// values with no server, in order for repeated requests; strict replay names the
/// missing request; a fixture records once and replays after.
@Suite("HAR record and replay")
struct HARTests {
    struct Greeting: Codable, Sendable, Equatable {
        var text: String
        var count: Int
    }

    /// The test server plus `GET /counter`, which answers `{"text","count"}` counting up.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func withServer<T>(_ body: (TestServer) async throws -> T) async throws -> T {
        let calls = NIOLockedValueBox(0)
        return try await TestServer.with(configure: { router in
            router.get("counter") { _, _ in
                let count = calls.withLockedValue {
                    $0 += 1
                    return $0
                }
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(
                        byteBuffer: ByteBuffer(data: try JSONEncoder().encode(Greeting(text: "hello", count: count)))))
            }
        }) { try await body($0) }
    }

    /// The calls each test makes: a user with credentials, a JSON post, binary bytes, and
    /// the counter twice.
    struct Calls: Equatable {
        var user: Data
        var posted: EchoReply
        var bytes: Data
        var counts: [Int]

        static func make(base: String, over transport: any Transport) async throws -> Calls {
            let networker = Networker(transport: transport)
            let credentials = Endpoint<Data>(
                RequestDescription(
                    route: base + "/json/user/1?id=7",
                    headers: [.authorization: "Bearer secret-token", .cookie: "sid=secret-cookie"]))
            let post = Endpoint<Data>(
                RequestDescription(
                    route: base + "/echo/posts", method: .post, parameters: ["title": "Hi"], encoding: .json))
            let decoder = JSONDecoder()
            let counter = Endpoint(RequestDescription(route: base + "/counter"), decoding: Greeting.self)
            return Calls(
                user: try await networker.send(credentials),
                posted: try decoder.decode(EchoReply.self, from: try await networker.send(post)),
                bytes: try await networker.send(Endpoint<Data>(RequestDescription(route: base + "/bytes/300"))),
                counts: [try await networker.send(counter).count, try await networker.send(counter).count])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aRecordingIsValidHARWithoutCredentialsAndReplaysTheSameValues(_ kind: TransportKind) async throws {
        let recorder = HARRecorder()
        let (live, base) = try await Self.withServer { server in
            try await kind.with { transport in
                let base = server.baseURL.absoluteString
                return (
                    try await Calls.make(base: base, over: HARRecordingTransport(wrapping: transport, into: recorder)),
                    base
                )
            }
        }
        let data = try recorder.har.encoded()
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("secret-token") && !text.contains("secret-cookie"))
        #expect(live.posted.headers["content-type"] == "application/json")
        try Self.expectValidHAR(data, entries: 5)
        let har = try HAR(contentsOf: try Self.write(data))
        #expect(
            har.log.entries.map { "\($0.request.method) \($0.request.url) \($0.response.status)" } == [
                "GET \(base)/json/user/1?id=7 200", "POST \(base)/echo/posts 200", "GET \(base)/bytes/300 200",
                "GET \(base)/counter 200", "GET \(base)/counter 200",
            ])
        #expect(har.log.entries[0].request.queryString == [HAR.NameValue(name: "id", value: "7")])
        #expect(
            har.log.entries[0].request.headers.filter { ["Authorization", "Cookie"].contains($0.name) }
                == [
                    HAR.NameValue(name: "Authorization", value: "REDACTED"),
                    HAR.NameValue(name: "Cookie", value: "REDACTED"),
                ])
        #expect(har.log.entries[1].request.postData?.text == #"{"title":"Hi"}"#)
        #expect(har.log.entries[2].response.content.encoding == "base64")
        #expect(har.log.entries[2].response.content.size == 300)
        // The HTTP version the transport reported (AsyncHTTPClient does, URLSession does not).
        let version = kind == .asyncHTTPClient ? "HTTP/1.1" : ""
        #expect(har.log.entries.map(\.response.httpVersion) == Array(repeating: version, count: 5))
        #expect(har.log.entries.map(\.request.httpVersion) == Array(repeating: version, count: 5))

        // Replayed with no server: the same values, the counter's in order.
        let replayed = try await Calls.make(base: base, over: HARReplayTransport(har))
        #expect(replayed == live)
        #expect(live.counts == [1, 2])
    }

    @Test func strictReplayNamesTheMissingRequestAndTheClosest() async throws {
        let base = "http://127.0.0.1:9"
        var har = HAR()
        har.log.entries = [try Self.entry("GET", base + "/users/1"), try Self.entry("POST", base + "/users/2")]
        let networker = Networker(transport: HARReplayTransport(har))
        let error = await #expect(throws: StrataError.self) {
            _ = try await networker.send(Endpoint<Data>(RequestDescription(route: base + "/users/2")))
        }
        #expect(
            (error?.underlying as? TransportError)?.underlying as? HARReplayError
                == .noMatch(request: "GET \(base)/users/2", closest: "GET \(base)/users/1"))
    }

    /// The first run records (the server answers), the second replays (no server).
    @Test func aFixtureRecordsOnceThenReplays() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("strata-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        let (first, base) = try await Self.withServer { server in
            try await TransportKind.asyncHTTPClient.with { transport in
                let base = server.baseURL.absoluteString
                let calls = try await HARFixture.with(file, recordingOver: transport) {
                    try await Calls.make(base: base, over: $0)
                }
                return (calls, base)
            }
        }
        #expect(try HAR(contentsOf: file).log.entries.count == 5)
        let second = try await TransportKind.asyncHTTPClient.with { transport in
            try await HARFixture.with(file, recordingOver: transport) { try await Calls.make(base: base, over: $0) }
        }
        #expect(second == first)
        #expect(try HAR(contentsOf: file).log.entries.count == 5)
    }

    static func write(_ data: Data) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("strata-\(UUID().uuidString).har")
        try data.write(to: file)
        return file
    }

    /// An entry answering `method` `url` with `200 ok`, as a HAR file would have it.
    static func entry(_ method: String, _ url: String) throws -> HAR.Entry {
        let json = """
            {"startedDateTime": "2026-11-26T04:00:00.000Z", "time": 1, "cache": {},
             "timings": {"send": 0, "wait": 1, "receive": 0},
             "request": {"method": "\(method)", "url": "\(url)", "httpVersion": "HTTP/1.1", "cookies": [],
                         "headers": [], "queryString": [], "headersSize": -1, "bodySize": 0},
             "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
                          "headers": [], "content": {"size": 2, "mimeType": "text/plain", "text": "ok"},
                          "redirectURL": "", "headersSize": -1, "bodySize": 2}}
            """
        return try JSONDecoder().decode(HAR.Entry.self, from: Data(json.utf8))
    }

    /// Checks the fields HAR 1.2 requires, by their JSON types, as a schema would.
    static func expectValidHAR(_ data: Data, entries count: Int) throws {
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let log = try #require(root["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let creator = try #require(log["creator"] as? [String: Any])
        #expect(creator["name"] is String && creator["version"] is String)
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.count == count)
        for entry in entries {
            let started = try #require(entry["startedDateTime"] as? String)
            #expect(ISO8601DateFormatter.withFractionalSeconds.date(from: started) != nil, "\(started)")
            #expect(entry["time"] is Double || entry["time"] is Int)
            #expect(entry["cache"] is [String: Any])
            let timings = try #require(entry["timings"] as? [String: Any])
            for key in ["send", "wait", "receive"] { #expect(timings[key] is NSNumber, "\(key)") }
            let request = try #require(entry["request"] as? [String: Any])
            for key in ["method", "url", "httpVersion"] { #expect(request[key] is String, "request.\(key)") }
            for key in ["cookies", "headers", "queryString"] { #expect(request[key] is [Any], "request.\(key)") }
            for key in ["headersSize", "bodySize"] { #expect(request[key] is NSNumber, "request.\(key)") }
            let response = try #require(entry["response"] as? [String: Any])
            for key in ["statusText", "httpVersion", "redirectURL"] {
                #expect(response[key] is String, "response.\(key)")
            }
            for key in ["status", "headersSize", "bodySize"] { #expect(response[key] is NSNumber, "response.\(key)") }
            for key in ["cookies", "headers"] { #expect(response[key] is [Any], "response.\(key)") }
            let content = try #require(response["content"] as? [String: Any])
            #expect(content["size"] is NSNumber && content["mimeType"] is String)
        }
    }
}

extension ISO8601DateFormatter {
    /// `2026-11-26T04:00:00.123Z`.
    fileprivate static var withFractionalSeconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
