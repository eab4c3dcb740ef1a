import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Strata
import StrataDemo
import StrataGRPC

/// The tour's "Second protocol" section: the same `User` over HTTP and over gRPC through
/// the same model layers, and the same resilience policies — a retry after `unavailable`,
/// a credential refresh after `unauthenticated` — driven by gRPC interceptors; then the
/// streaming calls: an upload of app models in a client stream, and a chat over a
/// bidirectional call.
///
/// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests makes these calls) -->
/// ```swift
/// let steps = await GRPCTour(grpcPort: grpcServer.port, httpBaseURL: server.baseURL, httpTransport: transport)
///     .run { print($0.summary) }
/// ```
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct GRPCTour: Sendable {
    /// One step's outcome.
    public struct Step: Sendable {
        /// What the step shows.
        public let title: String
        /// Whether it behaved as expected.
        public let passed: Bool
        /// What it got, or why it failed.
        public let summary: String
        /// How long it took.
        public let duration: Duration

        /// A step's outcome.
        public init(title: String, passed: Bool, summary: String, duration: Duration) {
            self.title = title
            self.passed = passed
            self.summary = summary
            self.duration = duration
        }
    }

    /// The demo gRPC server's port on 127.0.0.1.
    public let grpcPort: Int
    /// The demo HTTP server, for the HTTP side of the first step.
    public let httpBaseURL: URL
    /// The HTTP transport the first step uses.
    public let httpTransport: any Transport

    /// A tour of the gRPC server on `grpcPort`, comparing with the HTTP server at `httpBaseURL`.
    public init(grpcPort: Int, httpBaseURL: URL, httpTransport: any Transport) {
        self.grpcPort = grpcPort
        self.httpBaseURL = httpBaseURL
        self.httpTransport = httpTransport
    }

    /// Runs the steps in order, telling `onStep` each outcome, and returns them.
    public func run(onStep: @Sendable (Step) -> Void = { _ in }) async -> [Step] {
        await Step.run(stepBodies(http: Networker(transport: httpTransport, middleware: .resilient())), onStep: onStep)
    }

    /// Runs `body` with a client of the demo gRPC server with the `.resilient()`
    /// interceptors (`authentication` among them), then closes its connection.
    private func withNetworker<T: Sendable>(
        authentication: (any ClientInterceptor)? = nil, _ body: (GRPCNetworker) async throws -> T
    ) async throws -> T {
        let interceptors: [any ClientInterceptor] = .resilient(
            retry: RetryPolicy(initialBackoff: .milliseconds(20)), idempotentMethods: [Self.getUser.method],
            authentication: authentication)
        var configuration = GRPCNetworker.Configuration()
        configuration.logger.logLevel = .warning  // the transcript is the tour's output
        let networker = GRPCNetworker(
            transport: try HTTP2ClientTransport.Posix(
                target: .ipv4(address: "127.0.0.1", port: grpcPort), transportSecurity: .plaintext),
            interceptors: interceptors, configuration: configuration)
        let connections = Task { try await networker.runConnections() }
        defer {
            networker.beginGracefulShutdown()
            connections.cancel()
        }
        return try await body(networker)
    }

    private static let getUser = GRPCRoute(Strata_Demo_V1_UserService.Method.GetUser.descriptor)

    /// `GetUser(id)`.
    private static func getUser(_ id: Int64) throws -> RequestDescription<GRPCRoute> {
        try RequestDescription(route: getUser, message: Strata_Demo_V1_GetUserRequest.with { $0.id = id })
    }

    private static let uploadPhotos = GRPCRoute(Strata_Demo_V1_UserService.Method.UploadPhotos.descriptor)
    private static let chat = GRPCRoute(Strata_Demo_V1_UserService.Method.Chat.descriptor)

    /// The upload step: two new photos, one the album has, one for a user there is none of.
    private static let uploads = [
        PhotoUpload(userID: 3, photo: Photo(id: "3-1", image: "https://img.example/cleo/1.jpg")),
        PhotoUpload(userID: 3, photo: Photo(id: "3-2", image: "https://img.example/cleo/2.jpg")),
        PhotoUpload(userID: 1, photo: Photo(id: "1-1", image: "https://img.example/ann/1.jpg")),
        PhotoUpload(userID: 99, photo: Photo(id: "99-1", image: "https://img.example/nobody/1.jpg")),
    ]

    /// Chats in the demo's room: sends the first of `lines` as `author`, and each next one once
    /// the host answered the one before; returns every line the room sent back.
    private func chat(_ lines: [String], as author: String) async throws -> [ChatLine] {
        let (outgoing, input) = AsyncStream.makeStream(of: ChatLine.self)
        var script = lines.makeIterator()
        if let first = script.next() { input.yield(ChatLine(author: author, text: first)) }
        var received: [ChatLine] = []
        try await withNetworker { networker in
            let room = networker.stream(
                GRPCEndpoint(RequestDescription(route: Self.chat), decoding: ChatLine.self),
                messages: GRPCRequestMessages(models: outgoing))
            for try await line in room {
                received.append(line)
                guard line.author == "host" else { continue }
                if let next = script.next() {
                    input.yield(ChatLine(author: author, text: next))
                } else {
                    input.finish()
                }
            }
        }
        return received
    }

    private func stepBodies(http: Networker) -> [(String, () async throws -> String)] {
        [
            (
                "GetUser(1) over gRPC: the same User as GET /users/1 over HTTP",
                {
                    let overHTTP = try await http.send(DemoAPI(baseURL: httpBaseURL).user(id: 1))
                    let overGRPC = try await withNetworker { networker in
                        try await networker.send(GRPCEndpoint(try Self.getUser(1), decoding: User.self))
                    }
                    guard overGRPC == overHTTP else { throw TourFailure("gRPC \(overGRPC) ≠ HTTP \(overHTTP)") }
                    return
                        "User(name: \"\(overGRPC.name)\", photos: \(overGRPC.photos.count)) both ways, through UserEntry → User"
                }
            ),
            (
                "GetUser with two unavailable first: retried by GRPCRetryInterceptor",
                {
                    var description = try Self.getUser(2)
                    description.headers[HTTPField.Name("x-demo-flaky")!] = "tour-\(UUID().uuidString.prefix(8))"
                    let response = try await withNetworker { networker in
                        try await networker.response(for: GRPCEndpoint(description, decoding: User.self))
                    }
                    guard let retry = response.retry, retry.attempts == 3 else {
                        throw TourFailure("retry summary \(String(describing: response.retry))")
                    }
                    return
                        "User(name: \"\(response.value.name)\") on attempt \(retry.attempts) (after 2 × unavailable; the RetryPolicy and budget of HTTP)"
                }
            ),
            (
                "GetUser with an expired token: one refresh by GRPCAuthenticationInterceptor",
                {
                    let tokens = ExpiringCredentials()
                    let response = try await withNetworker(authentication: GRPCAuthenticationInterceptor(tokens)) {
                        try await $0.response(for: GRPCEndpoint(try Self.getUser(3), decoding: User.self))
                    }
                    guard response.credentialRefreshes == 1, tokens.refreshes == 1 else {
                        throw TourFailure("\(tokens.refreshes) refreshes")
                    }
                    return
                        "unauthenticated → 1 refresh (a CredentialProvider, as for HTTP) → User(name: \"\(response.value.name)\")"
                }
            ),
            (
                "UploadPhotos: app models in one client stream, one summary back",
                {
                    let report = try await withNetworker { networker in
                        try await networker.send(
                            GRPCEndpoint(RequestDescription(route: Self.uploadPhotos), decoding: UploadReport.self),
                            messages: GRPCRequestMessages(writing: PhotoUpload.self) { writer in
                                for upload in Self.uploads { try await writer.write(upload) }
                            })
                    }
                    guard report == UploadReport(added: 2, users: 1, refusedIDs: ["1-1", "99-1"]) else {
                        throw TourFailure("\(report)")
                    }
                    return
                        "\(Self.uploads.count) PhotoUploads sent → \(report.added) added to \(report.users) album; refused \(report.refusedIDs.joined(separator: ", ")) (already there, no user 99)"
                }
            ),
            (
                "Chat over a bidirectional call: each line sent once the room answered the one before",
                {
                    let received = try await chat(["hello", "is anyone here?", "bye"], as: "ann")
                    let expected = [
                        ChatLine(author: "ann", text: "hello"), ChatLine(author: "host", text: "ann, that was line 1"),
                        ChatLine(author: "ann", text: "is anyone here?"),
                        ChatLine(author: "host", text: "ann, that was line 2"),
                        ChatLine(author: "ann", text: "bye"), ChatLine(author: "host", text: "bye, ann"),
                    ]
                    guard received == expected else { throw TourFailure("\(received)") }
                    return "3 lines sent, \(received.count) received in order; the last: \(received.last!)"
                }
            ),
        ]
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension GRPCTour.Step {
    /// Runs `bodies` in order, each a title and what it does (returning its summary, or
    /// throwing when it did not behave as expected), timing each and telling `onStep`: the
    /// runner of the demo's sections that are not HTTP tours (gRPC, trust, WebSockets).
    public static func run(
        _ bodies: [(String, () async throws -> String)], onStep: @Sendable (GRPCTour.Step) -> Void
    ) async -> [GRPCTour.Step] {
        var steps: [GRPCTour.Step] = []
        for (title, body) in bodies {
            let start = ContinuousClock.now
            let step: GRPCTour.Step
            do {
                step = .init(title: title, passed: true, summary: try await body(), duration: start.duration(to: .now))
            } catch {
                step = .init(title: title, passed: false, summary: "\(error)", duration: start.duration(to: .now))
            }
            onStep(step)
            steps.append(step)
        }
        return steps
    }
}

/// A tour step that did not behave as expected.
struct TourFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A token that has expired, which one refresh replaces with a fresh one.
final class ExpiringCredentials: CredentialProvider {
    private let state = Locked((token: "expired", refreshes: 0))

    func currentCredential() async throws -> String { state.withLock { $0.token } }

    func refresh(_ rejected: String) async throws -> String {
        state.withLock { state in
            state.refreshes += 1
            state.token = "fresh-\(state.refreshes)"
            return state.token
        }
    }

    /// How many refreshes there were.
    var refreshes: Int { state.withLock { $0.refreshes } }
}
