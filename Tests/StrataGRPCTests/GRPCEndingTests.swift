import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import HTTPTypes
import Strata
import StrataFaultServer
import StrataGRPC
import StrataGRPCDemo
import StrataTestSupport
import Testing

/// gRPC calls end as HTTP calls do: the deadline is the call's timeout, a cancelled task the
/// call's cancellation, a dropped connection a lost one; each with the call's head as its
/// request, the phase it reached (waiting for the response's metadata, or reading its
/// messages once they came) and on time. Against the demo gRPC server through a
/// ``TCPRelay`` on 127.0.0.1, which drops the connection when the test says so.
@Suite("gRPC calls end as the call does", .isTimed)
struct GRPCEndingTests {
    /// How the call is made, and where it waits when its ending comes.
    enum Way: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// A unary call whose handler never answers: waiting for the response.
        case unary
        /// A server stream whose handler never answers: waiting for the response.
        case serverStream
        /// A chat (bidirectional) answered once, whose next message never comes: reading.
        case bidirectional

        var testDescription: String { rawValue }

        /// The phase the call is in when it ends.
        var phase: StrataError.Phase { self == .bidirectional ? .readingBody : .awaitingHead }

        /// The path of the call's head.
        var path: String {
            self == .bidirectional ? "/strata.test.Streams/Chat" : "/strata.test.Faults/Fault"
        }

        /// Makes the call through `networker` with `timeout`, and reads it to its end;
        /// `answered` is set once the chat's answer came.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        func call(_ networker: GRPCNetworker, timeout: Duration, answered: Locked<Bool>) async throws {
            switch self {
            case .unary:
                _ = try await networker.send(
                    GRPCEndpoint(try fault("hang"), decoding: Strata_Demo_V1_UserMessage.self).timeout(timeout))
            case .serverStream:
                for try await _ in networker.stream(GRPCEndpoint(try fault("hang"), parse: { $0 }).timeout(timeout)) {}
            case .bidirectional:
                // One message, and a request stream that stays open: the chat answers it and waits.
                let (asks, more) = AsyncStream<Strata_Demo_V1_GetUserRequest>.makeStream()
                more.yield(.with { $0.id = 1 })
                defer { more.finish() }
                let chat = GRPCEndpoint(
                    RequestDescription(route: GRPCRoute(StreamService.chat)),
                    decoding: Strata_Demo_V1_UserMessage.self
                ).timeout(timeout)
                var answers: [String] = []
                do {
                    for try await answer in networker.stream(chat, messages: GRPCRequestMessages(asks)) {
                        answers.append(answer.name)
                        answered.withLock { $0 = true }
                    }
                } catch {
                    #expect(answers == ["echo 1"])
                    throw error
                }
            }
        }
    }

    typealias Ending = CallEndingCause

    static var deadline: Duration { Ending.deadline }
    static let endAfter = Duration.milliseconds(500)
    static var margin: Duration { Ending.margin }

    @Test(arguments: Way.allCases)
    func theCallEndsAsAnHTTPCall(_ way: Way) async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        for ending in Ending.allCases {
            try await expectTheCallsEnding(way, ending)
        }
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func expectTheCallsEnding(_ way: Way, _ ending: Ending) async throws {
        let server = try await DemoGRPCServer.start(services: [FaultService(), StreamService()])
        let relay = try await TCPRelay.start(to: server.port)
        let transport = try HTTP2ClientTransport.Posix(
            target: .ipv4(address: "127.0.0.1", port: relay.port), transportSecurity: .plaintext)
        let networker = GRPCNetworker(transport: transport)
        let connections = Task { try await networker.runConnections() }
        // The connection is up before the clock starts.
        _ = try await networker.send(GRPCEndpoint(try fault("echo"), parse: { $0 }))
        let timeout = ending == .deadlinePasses ? Self.deadline : .seconds(30)
        let answered = Locked(false)
        let outcome = try await ending.outcome(
            of: { try await way.call(networker, timeout: timeout, answered: answered) }, after: Self.endAfter,
            ready: { if way == .bidirectional { try await waitUntil { answered.withLock { $0 } } } },
            drop: { await relay.resetConnections() })
        let (thrown, elapsed) = (outcome.thrown, outcome.elapsed)
        networker.beginGracefulShutdown()
        _ = await connections.result
        await relay.shutdown()
        await server.shutdown()

        let error = try #require(thrown as? StrataError, "\(ending): \(String(describing: thrown))")
        #expect(error.request?.path == way.path, "\(ending)")
        #expect(error.phase == way.phase, "\(ending): \(error)")
        switch ending {
        case .deadlinePasses:
            #expect(error.kind == .transport, "\(error)")
            #expect(error.transportError?.kind == .timedOut, "\(error)")
            #expect(error.grpcStatus?.code == .deadlineExceeded, "\(error)")
            #expect(elapsed >= Self.deadline && elapsed < Self.deadline + Self.margin, "\(elapsed)")
        case .taskCancelled:
            #expect(error.kind == .cancelled, "\(error)")
            #expect(elapsed < Self.margin, "\(elapsed)")
        case .serverDrops:
            #expect(error.kind == .transport, "\(error)")
            #expect(error.transportError?.kind == .connectionLost, "\(error)")
            #expect(error.grpcStatus?.code == .unavailable, "\(error)")
            #expect(elapsed < Self.margin, "\(elapsed)")
        }
    }
}
