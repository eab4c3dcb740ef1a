import Foundation
import HTTPTypes
import StrataTesting
import Testing

@testable import Strata
@testable import StrataCore

/// `Networker.events` over the mock transport, whose bodies arrive whole: the same
/// parser, the same reconnection, and a recorded stream replayed.
@Suite struct MockEventStreamTests {
    static let route = "https://api.example.com/feed"

    static func policy() -> ReconnectionPolicy {
        var policy = ReconnectionPolicy(jitter: false, maximumReconnections: 5, budget: .unlimited)
        policy.sleep = { _ in }
        return policy
    }

    @Test func reconnectsWithTheLastEventIDOverTheMock() async throws {
        let mock = MockTransport()
        let calls = Locked(0)
        mock.stub(.get, "/feed") { _, _ in
            let call = calls.withLock { calls in
                calls += 1
                return calls
            }
            return switch call {
            case 1: .text("id: a\ndata: one\n\nid: b\ndata: two\n\n", contentType: "text/event-stream")
            case 2: .text("data: three\n\nid: c\n", contentType: "text/event-stream; charset=utf-8")
            default: .status(.noContent)
            }
        }
        let stream = Networker(transport: mock).events(
            RequestDescription(route: Self.route), reconnection: Self.policy())
        var received: [ServerSentEvent] = []
        do {
            for try await event in stream { received.append(event) }
            Issue.record("the stream ended without an error")
        } catch let error as StrataError {
            #expect(error.kind == .eventStream)
            #expect(error.status == .noContent)
        }
        #expect(
            received == [
                ServerSentEvent(data: "one", id: "a"), ServerSentEvent(data: "two", id: "b"),
                ServerSentEvent(data: "three", id: "b"),
            ])
        // The unterminated `id: c` block of the second body never took effect.
        #expect(
            mock.requests.map { $0.headerFields[HTTPField.Name("Last-Event-ID")!] } == [nil, "b", "b"])
        #expect(mock.requests.allSatisfy { $0.headerFields[.accept] == "text/event-stream" })
    }

    @Test func aRecordedChatStreamReplaysThroughTheSameParser() async throws {
        struct Chunk: Decodable, Equatable, Sendable {
            struct Choice: Decodable, Equatable, Sendable {
                struct Delta: Decodable, Equatable, Sendable { var content: String? }
                var delta: Delta
            }
            var choices: [Choice]
        }
        let recording = """
            : keep-alive

            data: {"choices":[{"delta":{"content":"Hel"}}]}

            data: {"choices":[{"delta":{"content":"lo"}}]}

            data: [DONE]


            """
        let mock = MockTransport()
        mock.stub(.get, "/feed", with: .text(recording, contentType: "text/event-stream"))
        let tokens = Networker(transport: mock).events(
            RequestDescription(route: Self.route), reconnection: Self.policy()
        )
        .decoding(Chunk.self, until: "[DONE]")
        var text = ""
        for try await chunk in tokens { text += chunk.choices.first?.delta.content ?? "" }
        #expect(text == "Hello")
        #expect(mock.requests.count == 1)
    }

    @Test func dataThatDoesNotDecodeIsAStrataDecodingError() async throws {
        let mock = MockTransport()
        mock.stub(.get, "/feed", with: .text("data: {\"n\": \"x\"}\n\n", contentType: "text/event-stream"))
        struct Number: Decodable, Sendable { var n: Int }
        let numbers = Networker(transport: mock).events(
            RequestDescription(route: Self.route), reconnection: Self.policy()
        )
        .decoding(Number.self)
        do {
            for try await _ in numbers {}
            Issue.record("decoding succeeded")
        } catch let error as StrataError {
            #expect(error.kind == .decoding)
            #expect(error.mappingError?.codingPath == "n")
            #expect(error.bodySnippet == "{\"n\": \"x\"}")
        }
    }
}
