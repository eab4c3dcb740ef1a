import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import HTTPTypes
import Logging
import Strata
import StrataDemo
import StrataGRPC
import StrataGRPCDemo
import StrataTestSupport
import Testing

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private typealias Ask = Strata_Demo_V1_GetUserRequest
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private typealias Answer = Strata_Demo_V1_UserMessage

/// `GetUserRequest(id)` for each id, as an async sequence.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private func asks(_ ids: some Sequence<Int64>) -> AsyncStream<Ask> {
    AsyncStream { continuation in
        for id in ids { continuation.yield(Ask.with { $0.id = id }) }
        continuation.finish()
    }
}

/// The call `method` with `fault` metadata.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private func endpoint(_ method: MethodDescriptor, fault: String? = nil) -> GRPCEndpoint<Answer> {
    var headers = HTTPFields()
    if let fault { headers[HTTPField.Name("fault")!] = fault }
    return GRPCEndpoint(RequestDescription(route: GRPCRoute(method), headers: headers), decoding: Answer.self)
}

/// Starts the demo gRPC server with ``StreamService`` and a client, runs `body`, stops both.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private func withStreams(
    retrying method: MethodDescriptor? = nil, interceptors: [any ClientInterceptor] = [],
    _ body: (GRPCNetworker, StreamService) async throws -> Void
) async throws {
    let service = StreamService()
    let retry = method.map { method in
        GRPCRetryInterceptor(
            policy: Strata.RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(5), maxBackoff: .milliseconds(20)),
            budget: RetryBudget(), idempotentMethods: [method])
    }
    try await withDemo(serving: service, interceptors: interceptors + (retry.map { [$0] } ?? [])) { networker in
        try await body(networker, service)
    }
}

/// An app model sent as the demo's `GetUserRequest`, through a DTO; a negative id cannot
/// be sent.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private struct Pick: DTOEncodable {
    struct Refusal: Error, Equatable { let id: Int64 }
    struct DTO: RawEncodable, ProtobufRawEncodable {
        let id: Int64
        func toRaw() throws -> Ask { Ask.with { $0.id = id } }
        func toMessage() throws -> Ask { try toRaw() }
    }
    let id: Int64
    func toDTO() throws -> DTO {
        guard id >= 0 else { throw Refusal(id: id) }
        return DTO(id: id)
    }
}

@Suite("Client-streaming and bidirectional gRPC calls", .isTimed)
struct GRPCStreamingRequestTests {
    @Test func aClientStreamSendsEveryMessageInOrder() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withStreams { networker, service in
            let answer = try await networker.send(
                endpoint(StreamService.collect), messages: GRPCRequestMessages(asks(1...100)))
            #expect(answer.age == 100)
            #expect(answer.name == (1...100).map(String.init).joined(separator: ","))
            // The writer form, and the response with its metadata.
            let written = try await networker.response(
                for: endpoint(StreamService.collect),
                messages: GRPCRequestMessages(writing: Ask.self) { writer in
                    for id in [7, 3, 5] as [Int64] { try await writer.write(Ask.with { $0.id = id }) }
                })
            #expect(written.value.name == "7,3,5")
            #expect(written.route == GRPCRoute(service: "strata.test.Streams", method: "Collect"))
            // No messages at all.
            let none = try await networker.send(
                endpoint(StreamService.collect), messages: GRPCRequestMessages(asks([])))
            #expect(none.age == 0)
            #expect(service.received == [Array(1...100), [7, 3, 5], []])
        }
    }

    @Test func loadCallsBackWithTheOneAnswer() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withStreams { networker, _ in
            let result = await withCheckedContinuation { continuation in
                networker.load(endpoint(StreamService.collect), messages: GRPCRequestMessages(asks(1...3))) {
                    continuation.resume(returning: $0)
                }
            }
            #expect((try? result.get())?.name == "1,2,3", "\(result)")
        }
    }

    @Test func aBidirectionalCallEchoesEveryMessageInOrder() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withStreams { networker, _ in
            var names: [String] = []
            let stream = networker.stream(endpoint(StreamService.chat), messages: GRPCRequestMessages(asks(1...50)))
            #expect(stream.trailingMetadata == nil)
            for try await echo in stream {
                names.append(echo.name)
            }
            // The response's metadata and trailing metadata, once the stream ended.
            #expect(stream.metadata?[stringValues: "x-chat"].first(where: { _ in true }) == "hello")
            #expect(stream.trailingMetadata?[stringValues: "x-chat-answered"].first(where: { _ in true }) == "50")
            #expect(names == (1...50).map { "echo \($0)" })
        }
    }

    @Test func aMessageThatCannotBeEncodedEndsTheCallAsEncoding() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withStreams { networker, service in
            let messages = GRPCRequestMessages(writing: Pick.self) { writer in
                try await writer.write(Pick(id: 1))
                try await writer.write(Pick(id: 2))
                try await writer.write(Pick(id: -1))  // refused by its own toDTO()
                try await writer.write(Pick(id: 4))
            }
            let error = await #expect(throws: StrataError.self) {
                try await networker.send(endpoint(StreamService.collect), messages: messages)
            }
            #expect(error?.kind == .encoding)
            #expect(error?.underlying as? Pick.Refusal == Pick.Refusal(id: -1))
            #expect(service.received.first?.count ?? 0 <= 2)
        }
    }

    @Test func aFailureMidStreamFollowsTheMessagesAlreadyDeliveredAndIsNotRetried() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withStreams(retrying: StreamService.chat) { networker, service in
            var names: [String] = []
            let error = await #expect(throws: StrataError.self) {
                for try await echo in networker.stream(
                    endpoint(StreamService.chat, fault: "fail-after:2"), messages: GRPCRequestMessages(asks(1...5)))
                {
                    names.append(echo.name)
                }
            }
            #expect(names == ["echo 1", "echo 2"])
            #expect(error?.kind == .transport)
            #expect(service.calls.value(for: "chat") == 1)
        }
    }

    @Test func aClientStreamThatFailedBeforeAnyAnswerIsSentAgainWithTheSameMessages() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withStreams(retrying: StreamService.collect) { networker, service in
            let response = try await networker.response(
                for: endpoint(StreamService.collect, fault: "fail-first:1:replay"),
                messages: GRPCRequestMessages(asks(1...5)))
            #expect(response.value.name == "1,2,3,4,5")
            #expect(response.retry == RetrySummary(attempts: 2, stopReason: .notRetryable))
            #expect(service.received == [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]])
        }
    }

    @Test func theDeadlineEndsACallWhoseWriterNeverFinishes() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withStreams { networker, _ in
            let endless = GRPCRequestMessages(writing: Ask.self) { writer in
                try await writer.write(Ask.with { $0.id = 1 })
                try await Deadline.sleep(for: .seconds(600))
            }
            let start = ContinuousClock.now
            let error = await #expect(throws: StrataError.self) {
                try await networker.send(endpoint(StreamService.collect).timeout(.milliseconds(300)), messages: endless)
            }
            #expect(error?.kind == .transport)
            #expect((error?.underlying as? TransportError)?.kind == .timedOut)
            #expect(start.duration(to: .now) < .seconds(5))
        }
    }

    @Test func cancellingTheReaderEndsTheCallOnTheServer() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withStreams { networker, service in
            let reader = Task {
                for try await _ in networker.stream(
                    endpoint(StreamService.chat, fault: "hang"), messages: GRPCRequestMessages(asks(1...3)))
                {}
            }
            try await waitUntil { service.calls.value(for: "chat") == 1 }
            reader.cancel()
            _ = await reader.result
            try await waitUntil { service.calls.value(for: "chat-cancelled") == 1 }
            #expect(service.calls.value(for: "chat-cancelled") == 1)
        }
    }

    @Test func theLogSaysHowManyMessagesWentEachWay() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let log = EventLog()
        let logger = Logger(label: "grpc") { _ in CapturingLogHandler(log: log) }
        try await withStreams(interceptors: [GRPCLoggingInterceptor(logger: logger)]) { networker, _ in
            for try await _ in networker.stream(
                endpoint(StreamService.chat), messages: GRPCRequestMessages(asks(1...5)))
            {}
            _ = try await networker.send(endpoint(StreamService.collect), messages: GRPCRequestMessages(asks(1...3)))
        }
        let ends = log.all.filter { $0.contains("⇅") }
        #expect(ends.count == 2, "\(log.all)")
        #expect(ends.first?.hasPrefix("info ⇅ /strata.test.Streams/Chat ended: 5 sent, 5 received (") == true)
        #expect(ends.last?.hasPrefix("info ⇅ /strata.test.Streams/Collect ended: 3 sent, 1 received (") == true)
        #expect(log.all.filter { $0.hasPrefix("info → /strata.test.Streams/") }.count == 2)
    }
}

/// Volume, apart from the other suites (it keeps both cores busy for seconds, which the
/// timing-sensitive suites beside it would feel, and its memory is measured
/// process-wide): run by `.ci/run` on its own with `STRATA_VOLUME_TESTS=1`.
@Suite(
    "gRPC streams under volume", .isTimed,
    .enabled(if: ProcessInfo.processInfo.environment["STRATA_VOLUME_TESTS"] != nil, "set STRATA_VOLUME_TESTS=1"))
struct GRPCStreamVolumeTests {
    /// 10,000 messages each way, as fast as both sides go: every answer arrives, in order,
    /// and the process (client and server both) grows by less than 32 MB.
    @Test func tenThousandMessagesEachWayKeepMemoryFlat() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withStreams { networker, _ in
            let (count, growth) = try await PeakRSSSampler.measure {
                var count: Int64 = 0
                for try await echo in networker.stream(
                    endpoint(StreamService.chat), messages: GRPCRequestMessages(asks(1...10_000)))
                {
                    count += 1
                    guard echo.age == count else { throw StreamOrderError(expected: count, got: echo.age) }
                }
                return count
            }
            #expect(count == 10_000)
            #expect(growth < 32 << 20, "grew by \(growth >> 20) MB")
        }
    }
}

/// An answer out of order.
private struct StreamOrderError: Error {
    let expected: Int64
    let got: Int64
}
