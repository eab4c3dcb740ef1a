import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import Strata
import StrataAsyncHTTPClient
import StrataURLSession

import struct StrataDemo.Photo
import struct StrataDemo.PhotoEntry

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The harness's groups, each a pair of variants run side by side in one process.
enum PairGroup: String, CaseIterable, Sendable, Codable {
    /// Raw AsyncHTTPClient vs Strata over `AsyncHTTPClientTransport`.
    case ahc
    /// Raw URLSession (FoundationNetworking on Linux) vs Strata over `URLSessionTransport`.
    case urlsession
    /// Strata over ``InstantTransport`` with 0 vs 5 pass-through middleware: the pure
    /// pipeline cost, no I/O.
    case mock
    /// Plain `JSONDecoder` into the DTO vs Strata's parse (bytes → DTO → model), no pipeline.
    case decode
    /// Strata over AsyncHTTPClient: a loopback request vs a hit in a `MemoryCacheStore`.
    case cacheMemory = "cache-memory"
    /// Strata over AsyncHTTPClient: a loopback request vs a hit in a `SQLiteCacheStore`.
    case cacheSQLite = "cache-sqlite"
    /// Strata over AsyncHTTPClient with each call in a task of the `Networker`'s own
    /// (the transport wrapped so that it does not say it enforces the deadline) vs in the
    /// caller's task: what running calls inline saves.
    case inline
    /// Strata over AsyncHTTPClient without vs with a `ConcurrencyLimitMiddleware` whose
    /// limits the load never reaches (64 per host): the cost of the step itself.
    case limit
    /// The demo API's generated client (`StrataDemoOpenAPI.Client`) over
    /// swift-openapi-async-http-client's `AsyncHTTPClientTransport` vs over Strata
    /// (`NetworkerTransport` over Strata's `AsyncHTTPClientTransport`).
    case openapi
    /// The generated grpc-swift client vs `GRPCNetworker`: unary, client-streaming and
    /// bidirectional calls to the demo's in-process gRPC server (GRPCPairs.swift).
    case grpc

    /// What the group compares, for the report.
    var title: String {
        switch self {
        case .ahc: "raw AsyncHTTPClient vs Strata over AsyncHTTPClientTransport"
        case .urlsession: "raw URLSession vs Strata over URLSessionTransport"
        case .mock: "Strata over the in-memory transport, 0 vs 5 pass-through middleware"
        case .decode: "plain JSONDecoder into the DTO vs Strata's two-layer parse (no pipeline)"
        case .cacheMemory: "Strata over AsyncHTTPClient: a loopback request vs a hit in MemoryCacheStore"
        case .cacheSQLite: "Strata over AsyncHTTPClient: a loopback request vs a hit in SQLiteCacheStore"
        case .inline: "Strata over AsyncHTTPClient: each call in a task of its own vs in the caller's task"
        case .limit: "Strata over AsyncHTTPClient without vs with ConcurrencyLimitMiddleware (limits not reached)"
        case .openapi:
            "the generated client over OpenAPIAsyncHTTPClient vs over Strata "
                + "(NetworkerTransport over AsyncHTTPClientTransport)"
        case .grpc:
            "the generated grpc-swift client vs StrataGRPC's GRPCNetworker (unary and streaming, in-process server)"
        }
    }

    /// The concurrencies each workload runs at.
    var concurrencies: [Int] {
        switch self {
        case .ahc: [1, 16, 64]
        case .urlsession, .mock, .cacheMemory, .cacheSQLite, .inline, .limit, .openapi: [1, 16]
        case .decode: [1]
        case .grpc: [1, 16]
        }
    }
}

/// A middleware that passes everything on unchanged: the cost of a step itself. It waits
/// for nothing but `next`, so it says it bounds its waits: a step that does not lets no
/// call run in its caller's task (see `Middleware.boundsItsWaits`), and the pair would
/// measure that task rather than the steps.
struct PassThroughMiddleware: Middleware {
    var boundsItsWaits: Bool { true }

    func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        try await next(request, body, context)
    }
}

/// The per-request settings both sides share: Strata's defaults (60 s for the whole
/// exchange, 32 MiB of body at most).
enum Limits {
    static let timeout: TimeAmount = .seconds(60)
    static let maxBody = 32 * 1024 * 1024
}

/// The requests of a pair, as closures: each sends one request and checks its answer.
/// `register` is the `openapi` group's alone; the other groups leave it failing.
struct RequestSet: Sendable {
    var user: @Sendable () async throws -> Void
    var photos: @Sendable () async throws -> Void
    var form: @Sendable () async throws -> Void
    var register: @Sendable () async throws -> Void = RequestSet.missing("POST JSON user")
    var upload: @Sendable () async throws -> Void = RequestSet.missing("a client stream")
    var chat: @Sendable () async throws -> Void = RequestSet.missing("a bidirectional call")

    func request(for kind: WorkloadKind) -> @Sendable () async throws -> Void {
        switch kind {
        case .user: user
        case .photos: photos
        case .form: form
        case .register: register
        case .upload: upload
        case .chat: chat
        }
    }

    /// A request a set does not make: fails at once, naming `workload`.
    static func missing(_ workload: String) -> @Sendable () async throws -> Void {
        { throw BenchError(description: "\(workload) is not in this group") }
    }
}

/// Where the workloads' requests go.
struct Routes: Sendable {
    var user: URL
    var photos: URL
    var form: URL

    init(baseURL: URL) {
        user = baseURL.appendingPathComponent("json/user/1")
        photos = baseURL.appendingPathComponent("bench/photos")
        form = baseURL.appendingPathComponent("echo/form")
    }

    /// The routes with `user` answered with `Cache-Control: max-age=3600`: every request
    /// after the first is a cache hit for a client with a cache.
    static func cached(baseURL: URL) -> Routes {
        let routes = Routes(baseURL: baseURL)
        return Routes(
            user: baseURL.appendingPathComponent("bench/user-cached"), photos: routes.photos, form: routes.form)
    }

    /// The in-memory transport's routes, the user answered as cacheable.
    static let instantCached = Routes(
        user: InstantTransport.cachedUserURL, photos: InstantTransport.photosURL,
        form: InstantTransport.formURL)

    /// The in-memory transport's routes.
    static let instant = Routes(
        user: InstantTransport.userURL, photos: InstantTransport.photosURL,
        form: InstantTransport.formURL)

    private init(user: URL, photos: URL, form: URL) {
        self.user = user
        self.photos = photos
        self.form = form
    }
}

/// Strata's side of every pair: the same three endpoints through any `Networker`.
func strataRequests(_ networker: Networker, routes: Routes) -> RequestSet {
    let user = Endpoint(RequestDescription(route: routes.user), model: User.self)
    let photos = Endpoint(RequestDescription(route: routes.photos), model: [Photo].self)
    let form = Endpoint(
        RequestDescription(
            route: routes.form, method: .post, parameters: Payloads.form,
            encoding: .formURL), model: Echo.self)
    return RequestSet(
        user: { try check(user: try await networker.send(user).name) },
        photos: { try check(photoCount: try await networker.send(photos).count) },
        form: { try check(form: try await networker.send(form).body.count) })
}

/// Raw AsyncHTTPClient: `HTTPClientRequest` → `execute` → `collect` → `JSONDecoder` into
/// the DTO (one decoder, made once) → the same model mapping Strata's side runs, so the
/// pair compares the layer and not the app's own mapping.
func rawAsyncHTTPClientRequests(_ client: HTTPClient, routes: Routes) -> RequestSet {
    let decoder = JSONDecoder()
    @Sendable func get(_ url: URL) async throws -> ByteBuffer {
        let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: Limits.timeout)
        guard response.status == .ok else { throw BenchError(description: "GET \(url.path): \(response.status)") }
        return try await response.body.collect(upTo: Limits.maxBody)
    }
    return RequestSet(
        user: { try check(user: try RawModels.user(decoder.decode(UserEntry.self, from: try await get(routes.user)))) },
        photos: {
            try check(
                photoCount: try RawModels.photos(decoder.decode([PhotoEntry].self, from: try await get(routes.photos))))
        },
        form: {
            var request = HTTPClientRequest(url: routes.form.absoluteString)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded; charset=utf-8")
            request.body = .bytes(ByteBuffer(string: Payloads.formBody))
            let response = try await client.execute(request, timeout: Limits.timeout)
            guard response.status == .ok else { throw BenchError(description: "POST form: \(response.status)") }
            let body = try await response.body.collect(upTo: Limits.maxBody)
            try check(form: try RawModels.echo(decoder.decode(EchoEntry.self, from: body)))
        })
}

/// Raw URLSession: `URLRequest` → `data(for:)` → `JSONDecoder` into the DTO (one decoder,
/// made once) → the same model mapping Strata's side runs.
func rawURLSessionRequests(_ session: URLSession, routes: Routes) -> RequestSet {
    let decoder = JSONDecoder()
    @Sendable func load(_ request: URLRequest) async throws -> Data {
        var request = request
        request.timeoutInterval = 60
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw BenchError(description: "\(request.url?.path ?? "?"): not 200")
        }
        return data
    }
    return RequestSet(
        user: {
            try check(
                user: try RawModels.user(
                    decoder.decode(UserEntry.self, from: try await load(URLRequest(url: routes.user))))
            )
        },
        photos: {
            try check(
                photoCount: try RawModels.photos(
                    decoder.decode([PhotoEntry].self, from: try await load(URLRequest(url: routes.photos)))))
        },
        form: {
            var request = URLRequest(url: routes.form)
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded; charset=utf-8", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(Payloads.formBody.utf8)
            try check(form: try RawModels.echo(decoder.decode(EchoEntry.self, from: try await load(request))))
        })
}

/// What the raw variants do with a decoded DTO: the app's own mapping into its model, the
/// same functions Strata's `Endpoint(_:model:)` calls, so both sides of a pair end with
/// the model (the workloads are "→ model"). Each returns what the pair checks.
enum RawModels {
    static func user(_ entry: UserEntry) throws -> String {
        try User.from(dto: entry).name
    }

    static func photos(_ entries: [PhotoEntry]) throws -> Int {
        try entries.map { try Photo.from(dto: $0) }.count
    }

    static func echo(_ entry: EchoEntry) throws -> Int {
        try Echo.from(dto: entry).body.count
    }
}

/// The `decode` group: the bodies parsed without any pipeline, plain `JSONDecoder`
/// (one instance, made once) against Strata's parse of the same endpoints.
func decodeRequests() -> (plain: RequestSet, strata: RequestSet) {
    let decoder = JSONDecoder()
    let strataDecoder = Networker.Configuration().jsonDecoder
    let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
    let user = Endpoint(RequestDescription(route: Routes.instant.user), model: User.self)
    let photos = Endpoint(RequestDescription(route: Routes.instant.photos), model: [Photo].self)
    let form = Endpoint(RequestDescription(route: Routes.instant.form), model: Echo.self)
    let plain = RequestSet(
        user: { try check(user: try decoder.decode(UserEntry.self, from: Payloads.userJSON).name) },
        photos: { try check(photoCount: try decoder.decode([PhotoEntry].self, from: Payloads.photosJSON).count) },
        form: { try check(form: try decoder.decode(EchoEntry.self, from: Payloads.formEchoJSON).body.count) })
    let strata = RequestSet(
        user: { try check(user: try user.parse(RawResponse(head: head, body: Payloads.userJSON), strataDecoder).name) },
        photos: {
            try check(
                photoCount: try photos.parse(RawResponse(head: head, body: Payloads.photosJSON), strataDecoder).count)
        },
        form: {
            try check(
                form: try form.parse(RawResponse(head: head, body: Payloads.formEchoJSON), strataDecoder).body.count)
        })
    return (plain, strata)
}

func check(user name: String) throws {
    guard name == "User 1" else { throw BenchError(description: "unexpected user \(name)") }
}

private func check(photoCount: Int) throws {
    guard photoCount == Payloads.photoCount else { throw BenchError(description: "\(photoCount) photos") }
}

private func check(form bodyLength: Int) throws {
    guard bodyLength > 0 else { throw BenchError(description: "the form echo has no body") }
}
