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

    /// The call's deadline, and when the reading task is cancelled.
    static let deadline = Duration.seconds(1)
    static let cancelAfter = Duration.milliseconds(500)

    @Test(arguments: TransportKind.allCases, Ending.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func theReadThrowsTheCallsError(_ kind: TransportKind, ending: Ending) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                var endpoint = Endpoint<Data>(RequestDescription(route: server.url(for: ending.route)))
                endpoint.timeout = Self.deadline
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
                if ending == .taskCancelled {
                    try await Task.sleep(for: Self.cancelAfter)
                    reading.cancel()
                }
                let thrown = await reading.value
                let elapsed = start.duration(to: .now)
                let error = try #require(thrown as? StrataError, "not a StrataError: \(String(describing: thrown))")
                #expect(error.phase == (ending == .taskCancelled ? nil : .readingBody))
                #expect(error.request?.path == ending.route.target)
                #expect(error.status == .ok)
                switch ending {
                case .deadlinePasses:
                    #expect(error.kind == .transport)
                    #expect(error.transportError?.kind == .timedOut)
                    #expect(elapsed >= Self.deadline && elapsed < Self.deadline + .milliseconds(500))
                case .taskCancelled:
                    #expect(error.kind == .cancelled)
                    #expect(elapsed >= Self.cancelAfter && elapsed < Self.cancelAfter + .milliseconds(500))
                case .serverDrops:
                    #expect(error.kind == .transport)
                    #expect(error.transportError?.kind == .connectionLost)
                    #expect(elapsed < Self.deadline)
                }
            }
        }
    }
}
