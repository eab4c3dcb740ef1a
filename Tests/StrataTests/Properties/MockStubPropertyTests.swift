import Foundation
import HTTPTypes
import PropertyBased
import Strata
import StrataTestSupport
import StrataTesting
import Testing

/// ``MockTransport`` stubs matched against requests with random paths and queries.
@Suite(.runsAlone) struct MockStubPropertyTests {
    static let base = URL(string: "https://x.io")

    /// Sends a GET for `target` and returns the status, or `nil` when no stub took it.
    static func send(_ target: String, to mock: MockTransport) async throws -> HTTPResponse.Status? {
        let request = HTTPRequest(method: .get, scheme: "https", authority: "x.io", path: target)
        do {
            return try await mock.send(request, body: nil, deadline: nil).0.status
        } catch let error as MockTransportError {
            guard case .noStub = error else { throw error }
            return nil
        }
    }

    /// The text a random segment or value stands for: valid `%XX` escapes decoded, any
    /// other `%` kept; `nil` when the bytes are not UTF-8.
    static func meaning(_ text: String) -> String? {
        String(validUTF8: URLPercentEscaping.decodedBytes(text))
    }

    @Test func aStubAnswersARequestForItsOwnTarget() async throws {
        await propertyCheck(count: 500, input: PropertyGen.unicodeString()) { text in
            // The target as a request carries it (header values cannot hold line breaks).
            let target = try #require(
                HTTPRequest(method: .get, scheme: "https", authority: "x.io", path: "/" + text).path)
            let mock = MockTransport()
            mock.stub(.get, target, with: .status(.accepted))
            #expect(try await Self.send(target, to: mock) == .accepted, "stub \(target.debugDescription)")
        }
    }

    @Test func aLiteralStubAnswersTheRouteBuiltFromTheSamePath() async throws {
        let segments = PropertyGen.unicodeString(length: 1...12).filter { text in
            !text.utf8.contains(UInt8(ascii: "/")) && !text.utf8.contains(UInt8(ascii: "?"))
                && !text.hasPrefix(":") && text != "*" && text != "**"
        }
        await propertyCheck(count: 600, input: segments) { segment in
            let url = try Self.base + "/lit/" + segment
            let target = try #require(HTTPRequest(method: .get, url: url).path)
            let mock = MockTransport()
            mock.stub(.get, "/lit/" + segment, with: .status(.accepted))
            #expect(try await Self.send(target, to: mock) == .accepted, "request \(target.debugDescription)")
        }
    }

    @Test func pathParametersCaptureTheDecodedSegment() async throws {
        let segments = PropertyGen.unicodeString(length: 1...12).filter { text in
            !text.utf8.contains(UInt8(ascii: "/")) && !text.utf8.contains(UInt8(ascii: "?"))
        }
        await propertyCheck(count: 600, input: segments) { segment in
            let url = try Self.base + "/items/" + segment
            let target = try #require(HTTPRequest(method: .get, url: url).path)
            let mock = MockTransport()
            let captured = Locked<String?>(nil)
            mock.stub(.get, "/items/:id") { _, parameters in
                captured.withLock { $0 = parameters["id"] }
                return .status(.accepted)
            }
            #expect(try await Self.send(target, to: mock) == .accepted)
            if let meaning = Self.meaning(segment) {
                #expect(captured.withLock { $0 } == meaning)
            }
        }
    }

    @Test func queryStubsMatchEncodedParameters() async throws {
        let pairs = Generator<(String, String), Shrink.None<(String, String)>> { rng in
            (PropertyGen.string(length: 1...8, using: &rng), PropertyGen.string(length: 0...10, using: &rng))
        }
        await propertyCheck(count: 600, input: pairs) { name, value in
            let request = RequestDescription(
                route: try Self.base + "/s", parameters: [name: .string(value)] as JSON,
                encoding: .urlQuery)
            let target = try #require(try request.encoded().head.path)
            let mock = MockTransport()
            mock.stub(.get, "/s", query: [name: value], with: .status(.accepted))
            #expect(try await Self.send(target, to: mock) == .accepted, "request \(target.debugDescription)")
            let recorded = try #require(mock.requests.first)
            #expect(recorded.queryItems == [URLQueryItem(name: name, value: value)])
        }
    }

    @Test func randomStubsAndTargetsAnswerOrThrowNoStub() async throws {
        await propertyCheck(count: 600, input: PropertyGen.unicodeString(), PropertyGen.unicodeString()) {
            pattern, target in
            let mock = MockTransport()
            mock.stub(.get, pattern, query: [pattern: target], with: .status(.accepted))
            let status = try await Self.send(target, to: mock)
            #expect(status == nil || status == .accepted)
        }
    }
}

/// A value shared with a stub's handler.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock.
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
