import Foundation
import HTTPTypes
import Strata
import StrataFaultServer
import StrataTestSupport
import Testing

/// A streamed body's read ends the way a buffered call does: with the ``StrataError`` the
/// call decided — its kind, the phase "reading the body", the request and the response
/// head — whether the deadline passed, the reading task was cancelled or the server
/// dropped the connection, on both transports, against a server on 127.0.0.1.
@Suite("Streamed reads end as the call does", .isTimed)
struct StreamedReadEndingTests {
    enum Ending: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case deadlinePasses
        case taskCancelled
        case serverDrops

        var testDescription: String { rawValue }

        /// The route that makes it happen: a body that trickles past any deadline, or one
        /// the server resets halfway.
        var route: FaultRoute { self == .serverDrops ? .resetMidBody : .trickle }
    }

    /// The call's deadline where it is the subject, and when the reading task is cancelled.
    static let deadline = Duration.seconds(1)
    static let cancelAfter = Duration.milliseconds(500)
    /// How long after the deadline or the cancellation the read may end.
    static let margin = Duration.milliseconds(500)

    /// The call's deadline: out of the way when it is not the subject.
    static func deadline(for ending: Ending) -> Duration {
        ending == .deadlinePasses ? deadline : .seconds(30)
    }

    @Test(arguments: TransportKind.allCases, Ending.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func theReadThrowsTheCallsError(_ kind: TransportKind, ending: Ending) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                var endpoint = Endpoint<Data>(RequestDescription(route: server.url(for: ending.route)))
                endpoint.timeout = Self.deadline(for: ending)
                let start = ContinuousClock.now
                let (head, body) = try await Networker(transport: transport).stream(endpoint)
                #expect(head.status == .ok)
                let reading = Task { () -> (any Error)? in
                    do {
                        for try await _ in body {}
                        return nil
                    } catch {
                        return error
                    }
                }
                var cancelled = ContinuousClock.now
                if ending == .taskCancelled {
                    try await Task.sleep(for: Self.cancelAfter)
                    cancelled = .now
                    reading.cancel()
                }
                let thrown = await reading.value
                let ended = ContinuousClock.now
                let error = try #require(thrown as? StrataError, "not a StrataError: \(String(describing: thrown))")
                #expect(error.phase == .readingBody)
                #expect(error.request?.path == ending.route.target)
                #expect(error.status == .ok)
                switch ending {
                case .deadlinePasses:
                    #expect(error.kind == .transport)
                    #expect(error.transportError?.kind == .timedOut)
                    let elapsed = start.duration(to: ended)
                    #expect(elapsed >= Self.deadline && elapsed < Self.deadline + Self.margin, "\(elapsed)")
                case .taskCancelled:
                    #expect(error.kind == .cancelled)
                    #expect(cancelled.duration(to: ended) < Self.margin, "\(cancelled.duration(to: ended))")
                case .serverDrops:
                    #expect(error.kind == .transport)
                    #expect(error.transportError?.kind == .connectionLost)
                }
            }
        }
    }
}
