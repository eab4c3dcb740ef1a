import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import HTTPTypes
import Strata
import StrataAsyncHTTPClient
import StrataDemo
import StrataDemoServer
import StrataGRPC
import StrataGRPCDemo
import StrataTestSupport
import StrataTesting
import Synchronization
import Testing

/// Ann, as the HTTP demo's `GET /users/1` maps her into the app layer.
private let ann = User(
    name: "Ann", age: 30, type: .owner,
    photos: [
        Photo(id: "1-1", image: "https://img.example/ann/1.jpg"),
        Photo(id: "1-2", image: "https://img.example/ann/2.jpg"),
    ])

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private typealias UserService = Strata_Demo_V1_UserService

/// The call `GetUser(id)`.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private func getUser(_ id: Int64) throws -> RequestDescription<GRPCRoute> {
    try RequestDescription(
        route: GRPCRoute(UserService.Method.GetUser.descriptor),
        message: Strata_Demo_V1_GetUserRequest.with { $0.id = id })
}

/// The fault service's call, misbehaving as `fault` says (see ``FaultService``).
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
func fault(_ fault: String, headers: HTTPFields = [:]) throws -> RequestDescription<GRPCRoute> {
    var fields = headers
    fields[HTTPField.Name("fault")!] = fault
    return try RequestDescription(
        route: GRPCRoute(FaultService.method), message: Strata_Demo_V1_GetUserRequest(), headers: fields)
}

/// Starts the demo gRPC server (with the fault service) and a client to it, runs `body`,
/// then stops both.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
func withDemo(
    configuration: GRPCNetworker.Configuration = GRPCNetworker.Configuration(),
    interceptors: [any ClientInterceptor] = [],
    transportConfig: HTTP2ClientTransport.Posix.Config = .defaults,
    _ body: (GRPCNetworker, FaultService) async throws -> Void
) async throws {
    let faults = FaultService()
    try await withDemo(
        serving: faults, configuration: configuration, interceptors: interceptors, transportConfig: transportConfig
    ) { networker, _ in
        try await body(networker, faults)
    }
}

/// The demo's server stream of the photos of `user`.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
func photos(of user: Int64) throws -> GRPCEndpoint<Photo> {
    try GRPCEndpoint(
        RequestDescription(
            route: GRPCRoute(Strata_Demo_V1_UserService.Method.ListPhotos.descriptor),
            message: Strata_Demo_V1_ListPhotosRequest.with { $0.userID = user }),
        decoding: Photo.self)
}

/// Starts the demo gRPC server with `service` beside its own and a client to it (whose
/// attempts go into `recorder` when there is one), runs `body` with the client and the
/// server's port, then stops both.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
func withDemo(
    serving service: any RegistrableRPCService,
    configuration: GRPCNetworker.Configuration = GRPCNetworker.Configuration(),
    interceptors: [any ClientInterceptor] = [],
    transportConfig: HTTP2ClientTransport.Posix.Config = .defaults,
    recordingInto recorder: HARRecorder? = nil,
    _ body: (GRPCNetworker, _ port: Int) async throws -> Void
) async throws {
    let server = try await DemoGRPCServer.start(services: [service])
    let transport = try HTTP2ClientTransport.Posix(
        target: .ipv4(address: "127.0.0.1", port: server.port), transportSecurity: .plaintext,
        config: transportConfig)
    let networker =
        if let recorder {
            GRPCNetworker(
                transport: HARRecordingGRPCTransport(wrapping: transport, into: recorder), interceptors: interceptors,
                configuration: configuration)
        } else {
            GRPCNetworker(transport: transport, interceptors: interceptors, configuration: configuration)
        }
    let connections = Task { try await networker.runConnections() }
    do {
        try await body(networker, server.port)
    } catch {
        networker.beginGracefulShutdown()
        _ = await connections.result
        await server.shutdown()
        throw error
    }
    networker.beginGracefulShutdown()
    _ = await connections.result
    await server.shutdown()
}

@Suite("GRPCNetworker against the in-process gRPC demo server", .isTimed)
struct GRPCNetworkerTests {
    @Test("GetUser(1) over gRPC is the same User the HTTP demo gives, through the same UserEntry/User code")
    func unaryUserEqualsHTTP() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let http = try await DemoServer.start()
        let overHTTP: User
        do {
            overHTTP = try await Networker(transport: AsyncHTTPClientTransport())
                .send(DemoAPI(baseURL: http.baseURL).user(id: 1))
        } catch {
            await http.shutdown()
            throw error
        }
        await http.shutdown()
        #expect(overHTTP == ann)

        try await withDemo { networker, _ in
            let user = try await networker.send(GRPCEndpoint(getUser(1), decoding: User.self))
            #expect(user == overHTTP)
            // The raw layer alone, and the generated message with no model at all.
            let entry = try await networker.send(GRPCEndpoint(getUser(1), decoding: UserEntry.self))
            #expect(entry == (try ann.toDTO()))
            let message = try await networker.send(
                GRPCEndpoint(getUser(1), decoding: Strata_Demo_V1_UserMessage.self))
            #expect(message.name == "Ann" && message.age == 30 && message.photos.map(\.id) == ["1-1", "1-2"])
        }
    }

    @Test("response(for:) keeps the route, and metadata goes both ways (ASCII and -bin)")
    func responseAndMetadata() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withDemo { networker, _ in
            let response = try await networker.response(for: GRPCEndpoint(getUser(2), decoding: User.self))
            #expect(response.value.name == "Bob")
            #expect(response.route == GRPCRoute(service: "strata.demo.v1.UserService", method: "GetUser"))
            #expect(response.route.path == "/strata.demo.v1.UserService/GetUser")

            let blob: [UInt8] = [0, 1, 2, 250, 255]
            let echo = try await networker.response(
                for: GRPCEndpoint(
                    try fault(
                        "echo",
                        headers: [
                            HTTPField.Name("X-Trace")!: "abc-123",
                            HTTPField.Name("x-blob-bin")!: Data(blob).base64EncodedString(),
                        ]),
                    decoding: Strata_Demo_V1_UserMessage.self))
            #expect(Array(echo.metadata[stringValues: "x-trace"]) == ["abc-123"])
            #expect(Array(echo.metadata[binaryValues: "x-blob-bin"]) == [blob])
            // The call's deadline (60 s by default) reaches the server as the time left, in
            // microseconds.
            let timeout = try #require(echo.metadata[stringValues: "x-grpc-timeout"].first(where: { _ in true }))
            #expect(timeout.hasSuffix("u"))
            #expect((59_000_000...60_000_000).contains(Int(timeout.dropLast()) ?? 0), "\(timeout)")
        }
    }

    @Test("A -bin header that is not base64 fails as encoding, before any call")
    func invalidBinaryMetadata() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withDemo { networker, faults in
            let endpoint = GRPCEndpoint(
                try fault("echo", headers: [HTTPField.Name("x-blob-bin")!: "not base64!"]),
                decoding: Strata_Demo_V1_UserMessage.self)
            let error = await #expect(throws: StrataError.self) { try await networker.send(endpoint) }
            #expect(error?.kind == .encoding)
            #expect(error?.underlying is GRPCMetadataError)
            #expect(faults.calls.value == 0)
        }
    }

    @Test("load calls back with a Result, as the HTTP Networker's load does")
    func loadWithResult() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withDemo { networker, _ in
            let result = await withCheckedContinuation { continuation in
                networker.load(GRPCEndpoint(try! getUser(1), decoding: User.self)) {
                    continuation.resume(returning: $0)
                }
            }
            let loaded = try result.get()
            #expect(loaded == ann)

            let failure = await withCheckedContinuation { continuation in
                networker.load(GRPCEndpoint(try! getUser(99), decoding: User.self)) {
                    continuation.resume(returning: $0)
                }
            }
            guard case .failure(let error) = failure else {
                Issue.record("expected a failure, got \(failure)")
                return
            }
            #expect(error.kind == .grpcStatus)
            #expect(error.grpcStatus?.code == .notFound)
            #expect(error.grpcStatus?.message == "no user 99")
        }
    }

    @Test("ListPhotos streams the user's photos as app models, in order")
    func serverStreaming() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withDemo { networker, _ in
            let request = try RequestDescription(
                route: GRPCRoute(UserService.Method.ListPhotos.descriptor),
                message: Strata_Demo_V1_ListPhotosRequest.with { $0.userID = 4 })
            var photos: [Photo] = []
            for try await photo in networker.stream(GRPCEndpoint(request, decoding: Photo.self)) {
                photos.append(photo)
            }
            #expect(
                photos == [
                    Photo(id: "4-1", image: "https://img.example/dan/1.jpg"),
                    Photo(id: "4-2", image: "https://img.example/dan/2.jpg"),
                    Photo(id: "4-3", image: "https://img.example/dan/3.jpg"),
                ])

            let missing = try RequestDescription(
                route: GRPCRoute(UserService.Method.ListPhotos.descriptor),
                message: Strata_Demo_V1_ListPhotosRequest.with { $0.userID = 99 })
            let error = await #expect(throws: StrataError.self) {
                for try await _ in networker.stream(GRPCEndpoint(missing, decoding: Photo.self)) {}
            }
            #expect(error?.kind == .grpcStatus)
            #expect(error?.grpcStatus?.code == .notFound)
        }
    }

    @Test("Call observers see each gRPC call end as they see an HTTP call: a success, a status, a stream")
    func callObservers() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let seen = EndedCalls()
        var configuration = GRPCNetworker.Configuration()
        configuration.callObservers = [seen]
        try await withDemo(configuration: configuration) { networker, _ in
            _ = try await networker.send(GRPCEndpoint(getUser(1), decoding: User.self))
            #expect(seen.endings == ["ok"])
            let missing = try RequestDescription(
                route: GRPCRoute(UserService.Method.ListPhotos.descriptor),
                message: Strata_Demo_V1_ListPhotosRequest.with { $0.userID = 99 })
            await #expect(throws: StrataError.self) {
                for try await _ in networker.stream(GRPCEndpoint(missing, decoding: Photo.self)) {}
            }
            #expect(seen.endings == ["ok", "grpcStatus notFound"])
            let photos = try RequestDescription(
                route: GRPCRoute(UserService.Method.ListPhotos.descriptor),
                message: Strata_Demo_V1_ListPhotosRequest.with { $0.userID = 4 })
            var count = 0
            for try await _ in networker.stream(GRPCEndpoint(photos, decoding: Photo.self)) { count += 1 }
            #expect(count == 3)
            #expect(seen.endings == ["ok", "grpcStatus notFound", "ok"])
        }
    }

    @Test("Cancelling the task that reads a server stream ends it with .cancelled")
    func serverStreamingCancelled() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withDemo { networker, _ in
            let stream = networker.stream(GRPCEndpoint(try fault("hang"), parse: { $0 }))
            let reader = Task { () throws -> Int in
                var read = 0
                for try await _ in stream { read += 1 }
                return read
            }
            try await Deadline.sleep(for: .milliseconds(200))
            reader.cancel()
            let result = await reader.result
            guard case .failure(let error) = result else {
                Issue.record("expected a failure, got \(result)")
                return
            }
            #expect((error as? StrataError)?.kind == .cancelled)
        }
    }

    @Test("A handler that never answers stops at the client's deadline, as timedOut")
    func deadline() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        var configuration = GRPCNetworker.Configuration()
        configuration.timeout = .seconds(30)
        try await withDemo(configuration: configuration) { networker, _ in
            let start = ContinuousClock.now
            let error = await #expect(throws: StrataError.self) {
                try await networker.send(
                    GRPCEndpoint(try fault("hang"), decoding: Strata_Demo_V1_UserMessage.self)
                        .timeout(.milliseconds(300)))
            }
            let elapsed = start.duration(to: .now)
            #expect(error?.kind == .transport)
            #expect(error?.isTimeout == true)
            #expect(error?.transportError?.kind == .timedOut)
            #expect(error?.grpcStatus?.code == .deadlineExceeded)
            #expect(elapsed >= .milliseconds(250) && elapsed < .seconds(5), "took \(elapsed)")
        }
    }

    @Test("Cancelling the calling task, or the load handle, cancels the call")
    func cancellation() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withDemo { networker, _ in
            let call = Task {
                try await networker.send(GRPCEndpoint(try fault("hang"), decoding: Strata_Demo_V1_UserMessage.self))
            }
            try await Task.sleep(for: .milliseconds(200))
            let start = ContinuousClock.now
            call.cancel()
            let result = await call.result
            #expect(start.duration(to: .now) < .seconds(5))
            guard case .failure(let error as StrataError) = result else {
                Issue.record("expected a StrataError, got \(result)")
                return
            }
            #expect(error.kind == .cancelled)

            let loaded = await withCheckedContinuation { continuation in
                let handle = networker.load(
                    GRPCEndpoint(try! fault("hang"), decoding: Strata_Demo_V1_UserMessage.self)
                ) { continuation.resume(returning: $0) }
                Task {
                    try await Task.sleep(for: .milliseconds(200))
                    handle.cancel()
                }
            }
            guard case .failure(let loadError) = loaded else {
                Issue.record("expected a failure, got \(loaded)")
                return
            }
            #expect(loadError.kind == .cancelled)
        }
    }

    /// Status codes the server ends a call with, and the kind each becomes.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    static let statusKinds: [(code: Int, kind: StrataError.Kind)] = [
        (2, .grpcStatus),  // unknown
        (3, .grpcStatus),  // invalidArgument
        (5, .grpcStatus),  // notFound
        (6, .grpcStatus),  // alreadyExists
        (7, .grpcStatus),  // permissionDenied
        (8, .grpcStatus),  // resourceExhausted
        (9, .grpcStatus),  // failedPrecondition
        (10, .grpcStatus),  // aborted
        (11, .grpcStatus),  // outOfRange
        (12, .grpcStatus),  // unimplemented
        (13, .grpcStatus),  // internalError
        (15, .grpcStatus),  // dataLoss
        (16, .grpcStatus),  // unauthenticated
        (1, .cancelled),  // cancelled
        (4, .transport),  // deadlineExceeded: timed out
        (14, .transport),  // unavailable: the connection
    ]

    @Test("Every status becomes its StrataError kind, with the code and message kept")
    func statusMapping() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withDemo { networker, _ in
            for (code, kind) in Self.statusKinds {
                let error = await #expect(throws: StrataError.self) {
                    try await networker.send(
                        GRPCEndpoint(try fault("status:\(code)"), decoding: Strata_Demo_V1_UserMessage.self))
                }
                #expect(error?.kind == kind, "status \(code)")
                #expect(error?.grpcStatus?.code.rawValue == code, "status \(code)")
                #expect(error?.grpcStatus?.message == "fault \(code)", "status \(code)")
                switch code {
                case 4:
                    #expect(error?.transportError?.kind == .timedOut)
                    #expect(error?.isTimeout == true)
                case 14:
                    #expect(error?.transportError?.kind == .connectionLost)
                default:
                    #expect(error?.transportError == nil, "status \(code)")
                }
                #expect(error?.request?.path == "/strata.test.Faults/Fault")
            }
        }
    }

    @Test("Nothing listening is unavailable: a transport failure, connection refused")
    func connectionRefused() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let closed = try ClosedPort()
        let transport = try HTTP2ClientTransport.Posix(
            target: .ipv4(address: "127.0.0.1", port: closed.port), transportSecurity: .plaintext)
        let networker = GRPCNetworker(transport: transport)
        let connections = Task { try await networker.runConnections() }
        let error = await #expect(throws: StrataError.self) {
            try await networker.send(GRPCEndpoint(getUser(1), decoding: User.self).timeout(.seconds(10)))
        }
        networker.beginGracefulShutdown()
        _ = await connections.result
        #expect(error?.kind == .transport)
        #expect(error?.grpcStatus?.code == .unavailable)
        #expect(error?.transportError?.kind == .connectionRefused)
    }

    @Test("A message that is not the message is a typed decoding error, not a crash")
    func malformedMessage() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withDemo { networker, _ in
            let error = await #expect(throws: StrataError.self) {
                try await networker.send(GRPCEndpoint(try fault("malformed"), decoding: User.self))
            }
            #expect(error?.kind == .decoding)
            #expect(error?.mappingError?.layer == .raw)
            #expect(error?.mappingError?.typeName.hasSuffix("Strata_Demo_V1_UserMessage") == true)
            #expect(error?.body == Data([0xFF, 0xFF, 0xFF, 0xFF]))
            #expect(error?.grpcStatus == nil)
        }
    }

    @Test("A message the DTO refuses is decoding; a DTO the app model refuses is mapping")
    func layersOfFailure() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withDemo { networker, _ in
            let unknownType = await #expect(throws: StrataError.self) {
                try await networker.send(GRPCEndpoint(try fault("unknown-type"), decoding: User.self))
            }
            #expect(unknownType?.kind == .decoding)
            #expect(unknownType?.mappingError?.codingPath == "type")
            #expect(unknownType?.mappingError?.reason == "unknown user type 7")

            let refused = await #expect(throws: StrataError.self) {
                try await networker.send(GRPCEndpoint(try getUser(1), decoding: Senior.self))
            }
            #expect(refused?.kind == .mapping)
            #expect(refused?.mappingError?.layer == .model)
            #expect(refused?.underlying is Senior.TooYoung)
        }
    }
}

/// An app model over the demo's `UserEntry` that refuses users under 40.
private struct Senior: DTODecodable {
    struct TooYoung: Error {}

    let name: String

    static func from(dto: UserEntry) throws -> Senior {
        guard dto.age >= 40 else { throw TooYoung() }
        return Senior(name: dto.name)
    }
}

/// A call observer that keeps how each call ended: "ok", or the error's kind and gRPC status.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class EndedCalls: CallObserver {
    private let ended = Mutex<[String]>([])

    func callEnded(_ call: FinishedCall) {
        let ending =
            call.error.map { error in
                "\(error.kind)" + (error.grpcStatus.map { " \($0.code)" } ?? "")
            } ?? "ok"
        ended.withLock { $0.append(ending) }
    }

    var endings: [String] { ended.withLock { $0 } }
}
