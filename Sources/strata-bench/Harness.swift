import AsyncHTTPClient
import Foundation
import Strata
import StrataAsyncHTTPClient
import StrataSQLiteCache
import StrataURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pairs mode: runs every selected group's workloads, prints a table and the
/// targets, and writes `--json`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum Harness {
    /// Runs the pairs; returns the exit status (1 when a request failed).
    static func run(_ options: Options) async -> Int32 {
        var server: BenchServer.Handle?
        if !options.groups.isDisjoint(with: [.ahc, .urlsession, .cacheMemory, .cacheSQLite, .inline, .limit, .openapi])
        {
            do {
                server = options.inProcess ? try await BenchServer.startInProcess() : try BenchServer.startChild()
            } catch {
                printError("strata-bench: the server did not start: \(error)")
                return 1
            }
        }
        var report = RunReport(
            date: ISO8601DateFormatter().string(from: Date()),
            machine: "\(ProcessInfo.processInfo.activeProcessorCount) cores, "
                + ProcessInfo.processInfo.operatingSystemVersionString,
            server: server.map { "\($0.placement), \($0.baseURL.absoluteString)" } ?? "none",
            deadline: StrataBench.deadlineOn, rounds: options.rounds, requests: options.requests)
        print(
            "strata-bench: \(options.requests) requests per small workload, variant and round "
                + "(1 MB: \(photoRequests(options.requests, concurrency: 1))+), \(options.rounds) rounds, "
                + "order rotated; deadline \(report.deadline ? "on (60 s)" : "off"); server: \(report.server)")
        print(
            "CPU is the whole client process's (getrusage)"
                + (options.inProcess ? ", the in-process server's included." : "; the server's is not."))

        var failed = false
        if let baseURL = server?.baseURL {
            // First, while the process is small: later workloads leave freed memory that a
            // stream would reuse without growing RSS, hiding what it holds.
            do {
                report.streams = try await streamChecks(options, baseURL: baseURL)
            } catch {
                printError("strata-bench: streaming: \(error)")
                failed = true
            }
        }
        print(RunReport.tableHeader)
        for group in PairGroup.allCases where options.groups.contains(group) {
            do {
                try await run(group, options: options, baseURL: server?.baseURL) { report.results.append($0) }
            } catch {
                printError("strata-bench: \(group.rawValue): \(error)")
                failed = true
            }
        }
        await server?.stop()

        report.targets = RunReport.targets(report.results, streams: report.streams)
        print("targets:")
        print(RunReport.format(report.targets))
        print("allocations: \(report.allocations)")
        if let path = options.jsonPath {
            do {
                try writeJSON(report, to: path)
            } catch {
                printError("strata-bench: --json \(path): \(error)")
                failed = true
            }
        }
        return failed ? 1 : 0
    }

    /// Measured requests of the 1 MB workload for `requests` small ones.
    static func photoRequests(_ requests: Int, concurrency: Int) -> Int {
        max(requests / 20, 2 * concurrency)
    }

    /// Streams 100 MB through a Strata client of each selected transport group.
    private static func streamChecks(_ options: Options, baseURL: URL) async throws -> [StreamReport] {
        var reports: [StreamReport] = []
        if options.groups.contains(.ahc) {
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .strataDefault)
            let networker = Networker(
                transport: AsyncHTTPClientTransport(client: client),
                configuration: StrataBench.networkerConfiguration)
            let outcome: Result<StreamReport, any Error>
            do {
                outcome = .success(try await StreamReport.measure(networker, baseURL: baseURL, group: .ahc))
            } catch {
                outcome = .failure(error)
            }
            // Shut the client down whether or not the stream succeeded.
            try? await client.shutdown()
            reports.append(try outcome.get())
        }
        if options.groups.contains(.urlsession) {
            let networker = Networker(
                transport: URLSessionTransport(), configuration: StrataBench.networkerConfiguration)
            reports.append(try await StreamReport.measure(networker, baseURL: baseURL, group: .urlsession))
        }
        for stream in reports {
            print(
                "\(stream.group.rawValue): streamed \(stream.bytes / 1_048_576) MB through Networker.stream in "
                    + String(format: "%.1f s", stream.seconds) + ", peak RSS growth "
                    + (stream.peakGrowthMB.map { String(format: "%+.1f MB", $0) } ?? "n/a"))
        }
        return reports
    }

    /// Runs one group's workloads, handing each result to `record` as it is printed.
    private static func run(
        _ group: PairGroup,
        options: Options,
        baseURL: URL?,
        record: (WorkloadReport) -> Void
    ) async throws {
        print("-- \(group.title)")
        let configuration = StrataBench.networkerConfiguration
        switch group {
        case .ahc:
            guard let baseURL else { return }
            let routes = Routes(baseURL: baseURL)
            try await withHTTPClients(2) { clients in
                let networker = Networker(
                    transport: AsyncHTTPClientTransport(client: clients[1]), configuration: configuration)
                try await runWorkloads(
                    group, options: options, record: record,
                    baseline: ("raw", rawAsyncHTTPClientRequests(clients[0], routes: routes)),
                    subject: ("strata", strataRequests(networker, routes: routes)))
            }
        case .openapi:
            guard let baseURL else { return }
            // Each side on an HTTPClient of its own, as in the `ahc` group.
            try await withHTTPClients(2) { clients in
                try await runWorkloads(
                    group, options: options, record: record, kinds: [.user, .register],
                    baseline: ("openapi-ahc", OpenAPIPairs.direct(clients[0], baseURL: baseURL)),
                    subject: (
                        "openapi-strata",
                        OpenAPIPairs.strata(clients[1], baseURL: baseURL, configuration: configuration)
                    ))
            }
        case .inline:
            guard let baseURL else { return }
            let routes = Routes(baseURL: baseURL)
            try await withHTTPClients(1) { clients in
                let transport = AsyncHTTPClientTransport(client: clients[0])
                let tasked = Networker(transport: TaskedTransport(base: transport), configuration: configuration)
                let inline = Networker(transport: transport, configuration: configuration)
                try await runWorkloads(
                    group, options: options, record: record,
                    baseline: ("own task", strataRequests(tasked, routes: routes)),
                    subject: ("inline", strataRequests(inline, routes: routes)))
            }
        case .limit:
            guard let baseURL else { return }
            let routes = Routes(baseURL: baseURL)
            try await withHTTPClients(1) { clients in
                let transport = AsyncHTTPClientTransport(client: clients[0])
                let plain = Networker(transport: transport, configuration: configuration)
                let limited = Networker(
                    transport: transport, middleware: [ConcurrencyLimitMiddleware(perHost: 64, total: 64)],
                    configuration: configuration)
                try await runWorkloads(
                    group, options: options, record: record,
                    baseline: ("strata", strataRequests(plain, routes: routes)),
                    subject: ("strata+limit", strataRequests(limited, routes: routes)))
            }
        case .urlsession:
            guard let baseURL else { return }
            let routes = Routes(baseURL: baseURL)
            let session = URLSession(configuration: .default)
            defer { session.invalidateAndCancel() }
            let networker = Networker(transport: URLSessionTransport(), configuration: configuration)
            try await runWorkloads(
                group, options: options, record: record,
                baseline: ("raw", rawURLSessionRequests(session, routes: routes)),
                subject: ("strata", strataRequests(networker, routes: routes)))
        case .mock:
            let bare = Networker(transport: InstantTransport(), configuration: configuration)
            let layered = Networker(
                transport: InstantTransport(),
                middleware: Array(repeating: PassThroughMiddleware(), count: 5),
                configuration: configuration)
            try await runWorkloads(
                group, options: options, record: record,
                baseline: ("strata 0 mw", strataRequests(bare, routes: .instant)),
                subject: ("strata 5 mw", strataRequests(layered, routes: .instant)))
        case .decode:
            let sets = decodeRequests()
            try await runWorkloads(
                group, options: options, record: record,
                baseline: ("JSONDecoder", sets.plain), subject: ("strata parse", sets.strata))
        case .cacheMemory, .cacheSQLite:
            guard let baseURL else { return }
            let routes = Routes.cached(baseURL: baseURL)
            let file = FileManager.default.temporaryDirectory
                .appendingPathComponent("strata-bench-\(ProcessInfo.processInfo.processIdentifier).sqlite").path
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
            let store: any CacheStore = group == .cacheMemory ? MemoryCacheStore() : try SQLiteCacheStore(path: file)
            try await withHTTPClients(1) { clients in
                let plain = Networker(
                    transport: AsyncHTTPClientTransport(client: clients[0]), configuration: configuration)
                let cached = Networker(
                    transport: AsyncHTTPClientTransport(client: clients[0]),
                    middleware: [CacheMiddleware(store: store)], configuration: configuration)
                try await runWorkloads(
                    group, options: options, record: record, kinds: [.user],
                    baseline: ("loopback", strataRequests(plain, routes: routes)),
                    subject: ("cache hit", strataRequests(cached, routes: routes)))
            }
        case .grpc:
            guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
            try await GRPCRequestSets.with { sets in
                // Each Strata client against the raw client doing the same: with a retry
                // policy, both run grpc-swift's retry executor (the streaming calls are not
                // retried: only the unary call is idempotent).
                try await runWorkloads(
                    group, options: options, record: record, kinds: [.user, .upload, .chat],
                    baseline: ("raw", sets.raw), subject: ("strata", sets.strata))
                try await runWorkloads(
                    group, options: options, record: record, kinds: [.user],
                    baseline: ("raw+retry", sets.rawRetrying), subject: ("strata+retry", sets.retrying))
            }
        }
    }

    /// Runs `body` with `count` new `HTTPClient`s, and shuts them down whether or not it
    /// succeeded.
    private static func withHTTPClients(_ count: Int, _ body: ([HTTPClient]) async throws -> Void) async throws {
        let clients = (0..<count).map { _ in
            HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .strataDefault)
        }
        var failure: (any Error)?
        do {
            try await body(clients)
        } catch {
            failure = error
        }
        for client in clients { try? await client.shutdown() }
        if let failure { throw failure }
    }

    private static func runWorkloads(
        _ group: PairGroup,
        options: Options,
        record: (WorkloadReport) -> Void,
        kinds: [WorkloadKind] = [.user, .photos, .form],
        baseline: (name: String, requests: RequestSet),
        subject: (name: String, requests: RequestSet)
    ) async throws {
        for kind in kinds {
            for concurrency in group.concurrencies {
                // A 1 MB body, or a call of 100 messages, is a request worth 20 small ones.
                var requests =
                    [.photos, .upload, .chat].contains(kind)
                    ? photoRequests(options.requests, concurrency: concurrency) : options.requests
                // Without I/O a small request is cheap: more of them give steadier figures.
                if kind != .photos && (group == .decode || group == .mock) { requests *= 5 }
                let workload = Workload(
                    kind: kind, concurrency: concurrency, requests: requests,
                    baseline: Variant(name: baseline.name, request: baseline.requests.request(for: kind)),
                    subject: Variant(name: subject.name, request: subject.requests.request(for: kind)))
                let samples = try await measure(workload, rounds: options.rounds)
                let result = WorkloadReport(
                    group: group, workload: workload,
                    baseline: samples.baseline, subject: samples.subject)
                print(RunReport.rows(result))
                record(result)
            }
        }
    }
}
