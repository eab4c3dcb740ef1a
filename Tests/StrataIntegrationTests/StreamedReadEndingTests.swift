import Foundation
import HTTPTypes
import Strata
import StrataFaultServer
import StrataTestSupport
import Testing

/// Every way of making a call ends the same way while it reads the body: with the
/// ``StrataError`` the call decided — its kind, the phase "reading the body", the request
/// and the response head — whether the deadline passed, the task was cancelled or the
/// server dropped the connection, on both transports, against a server on 127.0.0.1.
@Suite("Streamed reads end as the call does", .isTimed)
struct StreamedReadEndingTests {
    /// How the call is made and its body read.
    enum Way: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// `send`: the client reads the whole body.
        case buffered
        /// `stream`: the caller reads the body.
        case streamed
        /// The raw `send(_:body:)`: the caller reads the body of a request given as is.
        case raw
        /// `download`: the body goes to a file, read under the call's deadline (no idle
        /// timeout), with no retry step to resume it.
        case download

        var testDescription: String { rawValue }

        /// Makes the call of `endpoint` and reads its body to the end, in the calling task.
        func call(_ endpoint: Endpoint<Data>, on networker: Networker) async throws {
            switch self {
            case .buffered:
                _ = try await networker.send(endpoint)
            case .streamed:
                let (head, body) = try await networker.stream(endpoint)
                #expect(head.status == .ok)
                for try await _ in body {}
            case .raw:
                let (head, body) = try await networker.send(try endpoint.encoded().head, body: nil)
                #expect(head.status == .ok)
                for try await _ in body {}
            case .download:
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "strata-ending-\(UUID().uuidString)", isDirectory: true)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                _ = try await networker.download(
                    endpoint, to: folder.appendingPathComponent("body"), idleTimeout: nil)
            }
        }
    }

    typealias Ending = CallEndingCause

    /// The call's deadline where it is the subject, and when the reading task is cancelled.
    static var deadline: Duration { Ending.deadline }
    static let cancelAfter = Duration.milliseconds(500)
    /// How long after the deadline or the cancellation the read may end.
    static var margin: Duration { Ending.margin }

    /// The client's deadline: out of the way when it is not the subject.
    static func deadline(for ending: Ending) -> Duration {
        ending == .deadlinePasses ? deadline : .seconds(30)
    }

    @Test(arguments: TransportKind.allCases, Way.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func theReadThrowsTheCallsError(_ kind: TransportKind, way: Way) async throws {
        for ending in Ending.allCases {
            try await expectTheCallsError(kind, way: way, ending: ending)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func expectTheCallsError(_ kind: TransportKind, way: Way, ending: Ending) async throws {
        try await FaultServer.with { server in
            try await kind.with { transport in
                let endpoint = Endpoint<Data>(RequestDescription(route: server.url(for: ending.route)))
                var configuration = Networker.Configuration()
                configuration.timeout = Self.deadline(for: ending)
                let networker = Networker(transport: transport, configuration: configuration)
                let outcome = try await ending.outcome(
                    of: { try await way.call(endpoint, on: networker) }, after: Self.cancelAfter)
                let error = try #require(
                    outcome.thrown as? StrataError,
                    "\(ending): not a StrataError: \(String(describing: outcome.thrown))")
                let elapsed = outcome.elapsed
                #expect(error.phase == .readingBody, "\(ending)")
                #expect(error.request?.path == ending.route.target)
                #expect(error.status == .ok)
                switch ending {
                case .deadlinePasses:
                    #expect(error.kind == .transport)
                    #expect(error.transportError?.kind == .timedOut)
                    #expect(elapsed >= Self.deadline && elapsed < Self.deadline + Self.margin, "\(elapsed)")
                case .taskCancelled:
                    #expect(error.kind == .cancelled, "\(error)")
                    #expect(elapsed < Self.margin, "\(elapsed)")
                case .serverDrops:
                    #expect(error.kind == .transport, "\(error)")
                    #expect(error.transportError?.kind == .connectionLost, "\(error)")
                }
            }
        }
    }
}

extension CallEndingCause {
    /// The fault server's route that makes it happen to a body: one that trickles past any
    /// deadline, or one the server resets halfway.
    var route: FaultRoute { self == .serverDrops ? .resetMidBody : .trickle }
}
