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
    configuration: GRPCNetworker.Configuration = GRPCNetworker.Configuration(),
    transportConfig: HTTP2ClientTransport.Posix.Config = .defaults,
    _ body: (GRPCNetworker, StreamService) async throws -> Void
) async throws {
    let service = StreamService()
    let retry = method.map { method in
        GRPCRetryInterceptor(
            policy: Strata.RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(5), maxBackoff: .milliseconds(20)),
            budget: RetryBudget(), idempotentMethods: [method])
    }
    try await withDemo(
        serving: service, configuration: configuration, interceptors: interceptors + (retry.map { [$0] } ?? []),
        transportConfig: transportConfig
    ) { networker, _ in
        try await body(networker, service)
    }
}

/// Hands out `stale`, and `fresh` after a refresh, counting the refreshes.
private final class StaleThenFresh: CredentialProvider {
    private let count = Locked(0)

    var refreshes: Int { count.withLock { $0 } }

    func currentCredential() async throws -> String { count.withLock { $0 } == 0 ? "stale" : "fresh" }

    func refresh(_ rejected: String) async throws -> String {
        count.withLock { $0 += 1 }
        return "fresh"
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

    /// grpc-swift's retry executor keeps 64 messages: a call that sent 64 is replayed, one
    /// that sent 65 is not, and its summary says so. A smaller bound is Strata's own.
    @Test func aStreamThatSentMoreThanItsReplayBoundIsNotSentAgain() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withStreams(retrying: StreamService.collect) { networker, service in
            let within = try await networker.response(
                for: endpoint(StreamService.collect, fault: "fail-first:1:64"),
                messages: GRPCRequestMessages(asks(1...64)))
            #expect(within.value.age == 64)
            #expect(within.retry == RetrySummary(attempts: 2, stopReason: .notRetryable))
            let beyond = await #expect(throws: StrataError.self) {
                try await networker.send(
                    endpoint(StreamService.collect, fault: "fail-first:1:65"),
                    messages: GRPCRequestMessages(asks(1...65)))
            }
            #expect(beyond?.grpcStatus?.code == .unavailable)
            #expect(beyond?.retry == RetrySummary(attempts: 1, stopReason: .bodyNotReplayable))
            #expect(service.received == [Array(1...64), Array(1...64), Array(1...65)])
        }
        var configuration = GRPCNetworker.Configuration()
        configuration.maxReplayedMessages = 3
        try await withStreams(retrying: StreamService.collect, configuration: configuration) { networker, service in
            let within = try await networker.response(
                for: endpoint(StreamService.collect, fault: "fail-first:1:3"),
                messages: GRPCRequestMessages(asks(1...3)))
            #expect(within.retry == RetrySummary(attempts: 2, stopReason: .notRetryable))
            let beyond = await #expect(throws: StrataError.self) {
                try await networker.send(
                    endpoint(StreamService.collect, fault: "fail-first:1:4"), messages: GRPCRequestMessages(asks(1...4))
                )
            }
            #expect(beyond?.retry == RetrySummary(attempts: 1, stopReason: .bodyNotReplayable))
            #expect(service.received == [[1, 2, 3], [1, 2, 3], [1, 2, 3, 4]])
        }
    }

    @Test func anAttemptWithoutAnAnswerInTimeIsSentAgainWithItsMessages() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        var configuration = GRPCNetworker.Configuration()
        configuration.timeout = .seconds(30)
        // Long enough for the second attempt to finish on a loaded machine (at 300 ms it
        // sometimes did not, and a third attempt was made).
        configuration.attemptTimeout = .seconds(1)
        try await withStreams(retrying: StreamService.collect, configuration: configuration) { networker, service in
            let response = try await networker.response(
                for: endpoint(StreamService.collect, fault: "hang-first:1:late"),
                messages: GRPCRequestMessages(asks(1...4)))
            #expect(response.value.name == "1,2,3,4")
            #expect(response.retry == RetrySummary(attempts: 2, stopReason: .notRetryable))
            #expect(service.received == [[1, 2, 3, 4], [1, 2, 3, 4]])
            // The abandoned attempt's handler was cancelled.
            try await waitUntil { service.calls.value(for: "late-cancelled") == 1 }
            #expect(service.calls.value(for: "late-cancelled") == 1)
        }
    }

    @Test func theCircuitBreakerCountsStreamsAndRefusesThemWhenOpen() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let breaker = GRPCCircuitBreakerInterceptor(
            policy: CircuitBreakerPolicy(consecutiveFailures: 2, breakDuration: .seconds(60)), target: "streams")
        try await withStreams(interceptors: [breaker]) { networker, service in
            var last: StrataError?
            for _ in 0..<2 {
                last = await #expect(throws: StrataError.self) {
                    try await networker.send(
                        endpoint(StreamService.collect, fault: "status:13"), messages: GRPCRequestMessages(asks(1...2)))
                }
                #expect(last?.grpcStatus?.code == .internalError)
            }
            #expect(last?.circuitTransitions?.map(\.state) == ["open"])
            let refused = await #expect(throws: StrataError.self) {
                try await networker.send(endpoint(StreamService.collect), messages: GRPCRequestMessages(asks(1...2)))
            }
            #expect(refused?.kind == .circuitOpen)
            #expect((refused?.underlying as? CircuitOpenError)?.host == "streams")
            let refusedStream = await #expect(throws: StrataError.self) {
                for try await _ in networker.stream(
                    endpoint(StreamService.chat), messages: GRPCRequestMessages(asks(1...2)))
                {}
            }
            #expect(refusedStream?.kind == .circuitOpen)
            #expect(service.received == [[1, 2], [1, 2]])
            #expect(service.calls.value(for: "chat") == 0)
        }
    }

    @Test func anUnauthenticatedStreamIsSentAgainOnceWithTheRenewedCredential() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let tokens = StaleThenFresh()
        try await withStreams(interceptors: [GRPCAuthenticationInterceptor(tokens)]) { networker, service in
            let response = try await networker.response(
                for: endpoint(StreamService.collect, fault: "auth"), messages: GRPCRequestMessages(asks(1...3)))
            #expect(response.value.name == "1,2,3")
            #expect(response.credentialRefreshes == 1)
            #expect(tokens.refreshes == 1)
            #expect(service.received == [[1, 2, 3], [1, 2, 3]])
            // The renewed credential is kept: the chat is answered at once.
            var names: [String] = []
            for try await echo in networker.stream(
                endpoint(StreamService.chat, fault: "auth"), messages: GRPCRequestMessages(asks(1...3)))
            {
                names.append(echo.name)
            }
            #expect(names == ["echo 1", "echo 2", "echo 3"])
            #expect(service.calls.value(for: "auth") == 3)
            #expect(tokens.refreshes == 1)
        }
    }

    @Test func aStreamBeyondItsReplayBoundIsNotSentAgainForANewCredential() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let tokens = StaleThenFresh()
        var configuration = GRPCNetworker.Configuration()
        configuration.maxReplayedMessages = 2
        try await withStreams(interceptors: [GRPCAuthenticationInterceptor(tokens)], configuration: configuration) {
            networker, service in
            let error = await #expect(throws: StrataError.self) {
                try await networker.send(
                    endpoint(StreamService.collect, fault: "auth"), messages: GRPCRequestMessages(asks(1...3)))
            }
            #expect(error?.grpcStatus?.code == .unauthenticated)
            #expect(tokens.refreshes == 0)
            #expect(service.received == [[1, 2, 3]])
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

    /// A chat whose writer never stops, left after three answers: the call is reset (the
    /// server's handler fails) and the writer stops.
    @Test func leavingABidirectionalStreamUnfinishedEndsTheCallAndTheWriter() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withStreams { networker, service in
            let written = Locked(0)
            let endless = GRPCRequestMessages(writing: Ask.self) { writer in
                var id: Int64 = 0
                while true {  // one a millisecond: a writer at full speed would fill the HTTP/2 windows
                    id += 1
                    try await writer.write(Ask.with { $0.id = id })
                    written.withLock { $0 += 1 }
                    try await Task.sleep(for: .milliseconds(1))
                }
            }
            var names: [String] = []
            for try await echo in networker.stream(endpoint(StreamService.chat), messages: endless) {
                names.append(echo.name)
                if names.count == 3 { break }
            }
            #expect(names == ["echo 1", "echo 2", "echo 3"])
            // The call ends at the server: its request messages end, or its stream is reset.
            try await waitUntil { service.calls.value(for: "chat-ended") + service.calls.value(for: "chat-broken") > 0 }
            // grpc-swift, its producer cancelled, ends the request messages before it resets
            // the stream: the server's handler always sees the messages end, and in some runs
            // it answers before the reset comes. A server can take an abandoned stream for a
            // finished one; not Strata's code to change (the producer throws).
            try await waitUntil(within: .seconds(1)) { service.calls.value(for: "chat-broken") == 1 }
            withKnownIssue(
                "grpc-swift half-closes a cancelled producer's stream before the reset", isIntermittent: true
            ) {
                #expect(service.calls.value(for: "chat-broken") == 1)
            }
            // The writer stopped: its count no longer moves.
            let stopped = written.withLock { $0 }
            try await Task.sleep(for: .milliseconds(200))
            #expect(written.withLock { $0 } == stopped)
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
    "gRPC streams under volume", .isTimed, .serialized,
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
            ResidentMemory.expect(growth: growth, below: 32 << 20, "grew by \(growth >> 20) MB")
        }
    }
}

extension GRPCStreamVolumeTests {
    /// 1,000 messages of 64 KiB (62.5 MiB) to a server that reads one a millisecond: the
    /// writer waits for the transport instead of buffering what the server has not read.
    @Test func aSlowServerHoldsTheWriterBack() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let payload = String(repeating: "x", count: 64 * 1024)
        let message = { @Sendable (id: Int) in
            Answer.with {
                $0.age = Int64(id)
                $0.name = payload
            }
        }
        let bytes = try (1...1000).reduce(0) { $0 + (try message($1).serializedBytes() as [UInt8]).count }
        try await withStreams { networker, _ in
            let (answer, growth) = try await PeakRSSSampler.measure {
                try await networker.send(
                    endpoint(StreamService.collect, fault: "slow:1"),
                    messages: GRPCRequestMessages(writing: Answer.self) { writer in
                        for id in 1...1000 { try await writer.write(message(id)) }
                    })
            }
            #expect(answer.age == 1000)
            #expect(answer.name == "\(bytes)")
            ResidentMemory.expect(growth: growth, below: 32 << 20, "grew by \(growth >> 20) MB")
        }
    }

    /// A bidirectional call answering each of 1,000 messages with 64 KiB (62.5 MiB), read one
    /// a millisecond: the server is held back instead of the answers piling up. Over a
    /// transport with a 64 KiB HTTP/2 window, as `GRPCNetworker.stream(_:)` advises: with the
    /// default 8 MiB window the transport can read far ahead of its reader on its own.
    @Test func aSlowReaderHoldsTheServerBack() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        var transportConfig = HTTP2ClientTransport.Posix.Config.defaults
        transportConfig.http2.targetWindowSize = 65_535
        try await withStreams(transportConfig: transportConfig) { networker, _ in
            // The answers as their bytes (a debug build's protobuf takes ~13 ms to read each).
            let big = GRPCEndpoint(endpoint(StreamService.chat, fault: "big:65536").request) { $0.count }
            let (sizes, growth) = try await PeakRSSSampler.measure {
                var sizes: Set<Int> = []
                var count = 0
                for try await size in networker.stream(big, messages: GRPCRequestMessages(asks(1...1000))) {
                    sizes.insert(size)
                    count += 1
                    try await Task.sleep(for: .milliseconds(1))
                }
                return (count, sizes)
            }
            #expect(sizes.0 == 1000)
            // The name (its tag, 3 bytes of length, 64 KiB) and the age (its tag, 1 or 2 bytes).
            #expect(sizes.1 == [1 + 3 + 65536 + 2, 1 + 3 + 65536 + 3])
            ResidentMemory.expect(growth: growth, below: 32 << 20, "grew by \(growth >> 20) MB")
        }
    }
}

/// An answer out of order.
private struct StreamOrderError: Error {
    let expected: Int64
    let got: Int64
}
