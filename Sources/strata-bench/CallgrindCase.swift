import AsyncHTTPClient
import Foundation
import HTTPTypes
import Strata
import StrataAsyncHTTPClient
import StrataObservability
import StrataSQLiteCache
import StrataURLSession

import struct StrataDemo.Photo
import struct StrataDemo.PhotoEntry

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cases `scripts/callgrind.sh` counts: `strata-bench --callgrind-case NAME
/// --iterations N` runs case `NAME` `N` times, sequentially, with no I/O. The script runs
/// each case twice with different `N` under valgrind; the difference of the totals over
/// the difference of `N` is the cost of one iteration, without the process's start-up.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum CallgrindCase: String, CaseIterable {
    /// One `GET` of the 193-byte user through a `Networker` over ``InstantTransport``
    /// with 5 pass-through middleware, decoded into the model (bytes → DTO → model).
    case pipeline5 = "pipeline-5mw"
    /// The same with no middleware.
    case pipeline0 = "pipeline-0mw"
    /// ``pipeline0`` with the body returned as its bytes (`Endpoint<Data>`): the call
    /// itself, without the parse ``decodeUserStrata`` counts.
    case pipelineBytes = "pipeline-0mw-bytes"
    /// ``pipeline0`` with a `TelemetryMiddleware` and no tracer or metrics backend
    /// bootstrapped (the no-op tracer and metrics): what observability costs when off.
    case pipelineTelemetry = "pipeline-telemetry-off"
    /// ``pipeline0`` with `StrataMetrics` among the call observers and no metrics backend.
    case pipelineObserved = "pipeline-metrics-off"
    /// The `POST form` workload with no middleware: five fields `.formURL`-encoded, the
    /// echo decoded.
    case pipelineForm = "pipeline-form"
    /// ``pipelineForm``'s five fields as a JSON body (`.json`) instead: what a form POST
    /// should not cost more than.
    case pipelineJSONPost = "pipeline-json-post"
    /// ``pipeline0`` through a `CoalescingMiddleware` with no identical call in flight:
    /// what the step costs a call it has nothing to share with (its request in a task of
    /// its own, its body read whole, one wait).
    case pipelineCoalescing = "pipeline-coalescing"
    /// ``pipeline0`` through a `RateLimitMiddleware` whose tokens are always free: what
    /// the limiter costs a call that does not wait (a lock, the bucket's refill).
    case pipelineRateLimit = "pipeline-ratelimit"
    /// `JSONDecoder.decode` of the same 193 bytes into the DTO, with one decoder for every
    /// call (as the `decode` pair's baseline).
    case decodeUser = "decode-user-plain"
    /// ``decodeUser`` followed by the app's own mapping of the DTO into the model
    /// (`User.from(dto:)`, three `URL(string:)`): the same work as ``decodeUserStrata``
    /// done by hand, what the raw sides of the loopback pairs do.
    case decodeUserMapped = "decode-user-plain-mapped"
    /// Strata's parse of the same bytes: bytes → `UserEntry` → `User`, with the
    /// configuration's decoder (the `decode` pair's subject).
    case decodeUserStrata = "decode-user-strata"
    /// Strata's parse of the 1 MB photo list: bytes → `[PhotoEntry]` → `[Photo]`.
    case decodeMap = "decode-map-1mb"
    /// Plain `JSONDecoder().decode` of the same bytes into `[PhotoEntry]`.
    case decodePlain = "decode-plain-1mb"
    /// One `GET` of the user answered by a `CacheMiddleware` over a `MemoryCacheStore`
    /// (the first request, outside the count's difference, stores it; every later one is
    /// a hit), decoded into the model.
    case cacheMemoryHit = "cache-memory-hit"
    /// The same hit from a ``SQLiteCacheStore`` in a temporary file.
    case cacheSQLiteHit = "cache-sqlite-hit"
    /// Raw AsyncHTTPClient: `GET` of the user from the bench server (at
    /// `STRATA_BENCH_SERVER`, else in a child process; not counted), collected and
    /// decoded into the DTO, as the `ahc` pair's baseline.
    case ahcRaw = "ahc-raw-user"
    /// The same through a `Networker` over `AsyncHTTPClientTransport` into the model.
    case ahcStrata = "ahc-strata-user"
    /// Raw URLSession: `GET` of the user from the bench server with `data(for:)`, decoded
    /// into the DTO and mapped to the model, as the `urlsession` pair's baseline.
    case urlSessionRaw = "urlsession-raw-user"
    /// The same through a `Networker` over `URLSessionTransport` into the model.
    case urlSessionStrata = "urlsession-strata-user"
    /// The same over `URLSessionTransport(session:)` borrowing a session without Strata's
    /// delegate: each response arrives whole through a completion handler, as raw
    /// `data(for:)` gets it, so no limit holds while it downloads. What the delegate that
    /// bounds a body costs is the difference to ``urlSessionStrata``.
    case urlSessionBorrowed = "urlsession-borrowed-user"
    /// The demo API's generated client: `getUser` (`GET /users/1` from the bench server,
    /// as ``ahcRaw``) over swift-openapi-async-http-client's transport, the `openapi`
    /// pair's baseline.
    case openapiAHC = "openapi-ahc-user"
    /// The same `getUser` over `NetworkerTransport` and a `Networker` over Strata's
    /// `AsyncHTTPClientTransport`, the `openapi` pair's subject.
    case openapiStrata = "openapi-strata-user"
    /// The `grpc` pair's client stream (`UploadPhotos`, 100 messages) by the generated
    /// client, against the demo gRPC server in this process (its instructions counted, as
    /// in the subject's case).
    case grpcRawUpload = "grpc-raw-upload"
    /// The same upload of 100 `PhotoUpload` app models through `GRPCNetworker`.
    case grpcStrataUpload = "grpc-strata-upload"
    /// The `grpc` pair's bidirectional call (`Chat`, 100 lines out, 200 in) by the
    /// generated client.
    case grpcRawChat = "grpc-raw-chat"
    /// The same chat through `GRPCNetworker`, from and into `ChatLine`.
    case grpcStrataChat = "grpc-strata-chat"
    /// `--websocket`'s throughput run with raw WSClient, one iteration a message: N text
    /// messages of 64 bytes sent while their echoes are read, over one connection to the
    /// echo server in this process (its instructions counted, as in the subject's case).
    case webSocketRaw = "websocket-raw"
    /// The same through Strata's `Networker.webSocket` over `AsyncHTTPClientTransport`.
    case webSocketStrata = "websocket-strata"

    /// Runs the case called `name` `iterations` times; returns the exit status.
    static func run(_ name: String, iterations: Int) async -> Int32 {
        guard let testCase = CallgrindCase(rawValue: name) else {
            printError(
                "strata-bench: unknown --callgrind-case \(name); known: "
                    + allCases.map(\.rawValue).joined(separator: ", "))
            return 2
        }
        do {
            try await testCase.run(iterations: iterations)
            return 0
        } catch {
            printError("strata-bench --callgrind-case \(name): \(error)")
            return 1
        }
    }

    /// The bench server: at `STRATA_BENCH_SERVER` when set, else in a child process. Under
    /// valgrind a child process cannot be started (its file descriptors are valgrind's):
    /// scripts/callgrind.sh starts the server and passes its address.
    private static func server() throws -> BenchServer.Handle {
        try ProcessInfo.processInfo.environment["STRATA_BENCH_SERVER"]
            .flatMap(URL.init(string:))
            .map { BenchServer.Handle(baseURL: $0, placement: "given", stop: {}) } ?? BenchServer.startChild()
    }

    private func run(iterations: Int) async throws {
        let configuration = StrataBench.networkerConfiguration
        switch self {
        case .pipeline5, .pipeline0, .pipelineCoalescing, .pipelineRateLimit:
            let middleware: [any Middleware] =
                switch self {
                case .pipeline5: Array(repeating: PassThroughMiddleware(), count: 5)
                case .pipelineCoalescing: [CoalescingMiddleware()]
                case .pipelineRateLimit: [RateLimitMiddleware(requestsPerSecond: 1e9, burst: 1_000_000)]
                default: []
                }
            let networker = Networker(
                transport: InstantTransport(), middleware: middleware, configuration: configuration)
            let request = strataRequests(networker, routes: .instant).user
            for _ in 0..<iterations { try await request() }
        case .pipelineBytes:
            let networker = Networker(transport: InstantTransport(), configuration: configuration)
            let endpoint = Endpoint<Data>(RequestDescription(route: InstantTransport.userURL))
            for _ in 0..<iterations {
                guard try await networker.send(endpoint).count == Payloads.userJSON.count else {
                    throw BenchError(description: "wrong body")
                }
            }
        case .pipelineTelemetry, .pipelineObserved:
            var observed = configuration
            if self == .pipelineObserved { observed.callObservers = [StrataMetrics()] }
            let middleware: [any Middleware] = self == .pipelineTelemetry ? [TelemetryMiddleware()] : []
            let networker = Networker(transport: InstantTransport(), middleware: middleware, configuration: observed)
            let request = strataRequests(networker, routes: .instant).user
            for _ in 0..<iterations { try await request() }
        case .pipelineForm:
            let request = strataRequests(
                Networker(transport: InstantTransport(), configuration: configuration),
                routes: .instant
            ).form
            for _ in 0..<iterations { try await request() }
        case .pipelineJSONPost:
            let networker = Networker(transport: InstantTransport(), configuration: configuration)
            let endpoint = Endpoint(
                RequestDescription(
                    route: InstantTransport.formURL, method: .post, parameters: Payloads.form, encoding: .json),
                model: Echo.self)
            for _ in 0..<iterations { _ = try await networker.send(endpoint) }
        case .urlSessionRaw, .urlSessionStrata, .urlSessionBorrowed:
            let server = try Self.server()
            let routes = Routes(baseURL: server.baseURL)
            let session = URLSession(configuration: .default)
            let transport = self == .urlSessionBorrowed ? URLSessionTransport(session: session) : URLSessionTransport()
            let request =
                self == .urlSessionRaw
                ? rawURLSessionRequests(session, routes: routes).user
                : strataRequests(Networker(transport: transport, configuration: configuration), routes: routes).user
            var failure: (any Error)?
            do {
                for _ in 0..<iterations { try await request() }
            } catch {
                failure = error
            }
            session.invalidateAndCancel()
            await server.stop()
            if let failure { throw failure }
        case .ahcRaw, .ahcStrata, .openapiAHC, .openapiStrata:
            let server = try Self.server()
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .strataDefault)
            let routes = Routes(baseURL: server.baseURL)
            let request =
                switch self {
                case .ahcRaw: rawAsyncHTTPClientRequests(client, routes: routes).user
                case .openapiAHC: OpenAPIPairs.direct(client, baseURL: server.baseURL).user
                case .openapiStrata:
                    OpenAPIPairs.strata(client, baseURL: server.baseURL, configuration: configuration).user
                default:
                    strataRequests(
                        Networker(transport: AsyncHTTPClientTransport(client: client), configuration: configuration),
                        routes: routes
                    ).user
                }
            var failure: (any Error)?
            do {
                for _ in 0..<iterations { try await request() }
            } catch {
                failure = error
            }
            try? await client.shutdown()
            await server.stop()
            if let failure { throw failure }
        case .decodeUser:
            let decoder = JSONDecoder()
            for _ in 0..<iterations {
                guard try decoder.decode(UserEntry.self, from: Payloads.userJSON).photos.count == 3 else {
                    throw BenchError(description: "wrong user")
                }
            }
        case .decodeUserMapped:
            let decoder = JSONDecoder()
            for _ in 0..<iterations {
                try check(user: try RawModels.user(decoder.decode(UserEntry.self, from: Payloads.userJSON)))
            }
        case .decodeUserStrata:
            let endpoint = Endpoint(RequestDescription(route: InstantTransport.userURL), model: User.self)
            let response = RawResponse(
                head: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
                body: Payloads.userJSON)
            for _ in 0..<iterations {
                guard try endpoint.parse(response, configuration.jsonDecoder).photos.count == 3 else {
                    throw BenchError(description: "wrong user")
                }
            }
        case .decodeMap:
            let endpoint = Endpoint(RequestDescription(route: InstantTransport.photosURL), model: [Photo].self)
            let response = RawResponse(head: HTTPResponse(status: .ok), body: Payloads.photosJSON)
            for _ in 0..<iterations {
                guard try endpoint.parse(response, configuration.jsonDecoder).count == Payloads.photoCount else {
                    throw BenchError(description: "wrong photo count")
                }
            }
        case .decodePlain:
            let body = Payloads.photosJSON
            for _ in 0..<iterations {
                guard try Payloads.decodePhotoEntries(body).count == Payloads.photoCount else {
                    throw BenchError(description: "wrong photo count")
                }
            }
        case .grpcRawUpload, .grpcStrataUpload, .grpcRawChat, .grpcStrataChat:
            guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
                throw BenchError(description: "gRPC needs macOS 15")
            }
            try await GRPCRequestSets.with { sets in
                let request =
                    switch self {
                    case .grpcRawUpload: sets.raw.upload
                    case .grpcStrataUpload: sets.strata.upload
                    case .grpcRawChat: sets.raw.chat
                    default: sets.strata.chat
                    }
                for _ in 0..<iterations { try await request() }
            }
        case .webSocketRaw, .webSocketStrata:
            #if WebSocket && canImport(HummingbirdWebSocket)
                try await WebSocketBench.throughput(raw: self == .webSocketRaw, messages: iterations)
            #else
                throw BenchError(
                    description:
                        "strata-bench was built without the WebSocket trait, or not on Linux (WebSocketBench.swift)")
            #endif
        case .cacheMemoryHit, .cacheSQLiteHit:
            let file = FileManager.default.temporaryDirectory
                .appendingPathComponent("strata-callgrind-\(ProcessInfo.processInfo.processIdentifier).sqlite").path
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
            let store: any CacheStore = self == .cacheMemoryHit ? MemoryCacheStore() : try SQLiteCacheStore(path: file)
            let networker = Networker(
                transport: InstantTransport(), middleware: [CacheMiddleware(store: store)],
                configuration: configuration)
            let request = strataRequests(networker, routes: .instantCached).user
            try await request()
            for _ in 0..<iterations { try await request() }
        }
    }
}
