import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Strata
import StrataAsyncHTTPClient
import StrataURLSession

/// The pairs mode: runs every selected group's workloads, prints a table and the
/// targets, and writes `--json`.
enum Harness {
    /// Runs the pairs; returns the exit status (1 when a request failed).
    static func run(_ options: Options) async -> Int32 {
        var server: BenchServer.Handle?
        if !options.groups.isDisjoint(with: [.ahc, .urlsession]) {
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
        print("strata-bench: \(options.requests) requests per small workload, variant and round "
              + "(1 MB: \(photoRequests(options.requests, concurrency: 1))+), \(options.rounds) rounds, "
              + "order rotated; deadline \(report.deadline ? "on (60 s)" : "off"); server: \(report.server)")
        print("CPU is the whole client process's (getrusage)"
              + (options.inProcess ? ", the in-process server's included." : "; the server's is not."))
        print(RunReport.tableHeader)

        var failed = false
        for group in PairGroup.allCases where options.groups.contains(group) {
            do {
                if let stream = try await run(group, options: options, baseURL: server?.baseURL,
                                              record: { report.results.append($0) }) {
                    report.streams.append(stream)
                    print("\(group.rawValue): streamed \(stream.bytes / 1_048_576) MB through Networker.stream in "
                          + String(format: "%.1f s", stream.seconds) + ", peak RSS growth "
                          + (stream.peakGrowthMB.map { String(format: "%+.1f MB", $0) } ?? "n/a"))
                }
            } catch {
                printError("strata-bench: \(group.rawValue): \(error)")
                failed = true
            }
        }
        await server?.stop()

        report.targets = RunReport.targets(report.results, streams: report.streams)
        print("targets (issue 10):")
        print(RunReport.format(report.targets))
        print("allocations: \(report.allocations)")
        if let path = options.jsonPath {
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try encoder.encode(report).write(to: URL(fileURLWithPath: path))
                print("wrote \(path)")
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

    /// Runs one group's workloads, handing each result to `record` as it is printed;
    /// for a transport group, then streams 100 MB through its Strata client.
    private static func run(
        _ group: PairGroup,
        options: Options,
        baseURL: URL?,
        record: (WorkloadReport) -> Void
    ) async throws -> StreamReport? {
        print("-- \(group.title)")
        let configuration = StrataBench.networkerConfiguration
        switch group {
        case .ahc:
            guard let baseURL else { return nil }
            let routes = Routes(baseURL: baseURL)
            let rawClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .strataDefault)
            let strataClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .strataDefault)
            let networker = Networker(transport: AsyncHTTPClientTransport(client: strataClient), configuration: configuration)
            var failure: (any Error)?
            var stream: StreamReport?
            do {
                try await runWorkloads(group, options: options, record: record,
                                       baseline: ("raw", rawAsyncHTTPClientRequests(rawClient, routes: routes)),
                                       subject: ("strata", strataRequests(networker, routes: routes)))
                stream = try await StreamReport.measure(networker, baseURL: baseURL, group: group)
            } catch {
                failure = error
            }
            // Shut both clients down whether or not the run succeeded.
            try? await rawClient.shutdown()
            try? await strataClient.shutdown()
            if let failure { throw failure }
            return stream
        case .urlsession:
            guard let baseURL else { return nil }
            let routes = Routes(baseURL: baseURL)
            let session = URLSession(configuration: .default)
            defer { session.invalidateAndCancel() }
            let networker = Networker(transport: URLSessionTransport(), configuration: configuration)
            try await runWorkloads(group, options: options, record: record,
                                   baseline: ("raw", rawURLSessionRequests(session, routes: routes)),
                                   subject: ("strata", strataRequests(networker, routes: routes)))
            return try await StreamReport.measure(networker, baseURL: baseURL, group: group)
        case .mock:
            let bare = Networker(transport: InstantTransport(), configuration: configuration)
            let layered = Networker(transport: InstantTransport(),
                                    middleware: Array(repeating: PassThroughMiddleware(), count: 5),
                                    configuration: configuration)
            try await runWorkloads(group, options: options, record: record,
                                   baseline: ("strata 0 mw", strataRequests(bare, routes: .instant)),
                                   subject: ("strata 5 mw", strataRequests(layered, routes: .instant)))
            return nil
        case .decode:
            let sets = decodeRequests()
            try await runWorkloads(group, options: options, record: record,
                                   baseline: ("JSONDecoder", sets.plain), subject: ("strata parse", sets.strata))
            return nil
        }
    }

    private static func runWorkloads(
        _ group: PairGroup,
        options: Options,
        record: (WorkloadReport) -> Void,
        baseline: (name: String, requests: RequestSet),
        subject: (name: String, requests: RequestSet)
    ) async throws {
        for kind in [WorkloadKind.user, .photos, .form] {
            for concurrency in group.concurrencies {
                var requests = kind == .photos
                    ? photoRequests(options.requests, concurrency: concurrency) : options.requests
                // Without I/O a request is cheap: more of them give steadier figures.
                if group == .decode || group == .mock { requests *= 5 }
                let workload = Workload(
                    kind: kind, concurrency: concurrency, requests: requests,
                    baseline: Variant(name: baseline.name, request: baseline.requests.request(for: kind)),
                    subject: Variant(name: subject.name, request: subject.requests.request(for: kind)))
                let samples = try await measure(workload, rounds: options.rounds)
                let result = WorkloadReport(group: group, workload: workload,
                                            baseline: samples.baseline, subject: samples.subject)
                print(RunReport.rows(result))
                record(result)
            }
        }
    }
}
