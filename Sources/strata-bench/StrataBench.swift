// strata-bench: raw AsyncHTTPClient versus Strata over AsyncHTTPClient.
//
//     swift run -c release strata-bench                  # 2000 requests per case
//     swift run -c release strata-bench --requests 500   # quicker
//
// It starts the in-process test server (StrataTestServer) on 127.0.0.1 and, in one run,
// measures each workload three ways, each on its own `HTTPClient` configured with
// `HTTPClient.Configuration.strataDefault`:
//
// - raw:               `HTTPClientRequest` → `execute` → `body.collect(upTo:)` →
//                      `JSONDecoder().decode` into a plain `Decodable`;
// - strata(model):     `Networker(transport: AsyncHTTPClientTransport(client:))` sending
//                      `Endpoint(_:model:)`: bytes → DTO → application model;
// - strata(decodable): the same networker sending `Endpoint(_:decoding:)`.
//
// Workloads: sequential `GET /json/user/1`, the same from 8 concurrent tasks, and
// sequential `POST /echo/bench` with a small JSON body. Each variant is warmed up with
// 200 requests, then measured 3 times (order rotated); the median requests/s is printed
// with the ratio Strata/raw. Only ratios from the same run are meaningful: absolute numbers
// depend on the machine (client and server share its cores). See Benchmarks.md.
//
// Sustained load, memory and timers (Soak.swift):
//
//     swift run -c release strata-bench --soak                      # workload A, 200000 requests
//     swift run -c release strata-bench --soak --server --seconds 60
//     swift run -c release strata-bench --soak --max-growth-mb 20   # exit 1 past 20 MB of growth
//
// With `Networker.Configuration()` (60 s timeout) and `GET` of a user decoded into the
// model from 16 tasks (`--concurrency`): workload A over `InstantTransport`, an in-bench
// transport that answers at once (no I/O; `--requests`, default 200000); workload B
// (`--server`) over `AsyncHTTPClientTransport` against the test server (`--seconds`,
// default 30). The load runs in ten steps, the first being the warm-up; RSS (Linux:
// /proc/self/statm; "n/a" elsewhere) is sampled after each, and the growth after the
// warm-up reported. Then the process idles (`--idle-seconds`, default 5) and reports the
// CPU time it used meanwhile, where timers left behind by finished requests show up.
// It exits 1 when a request fails, or with `--max-growth-mb X` when RSS grew more than X MB.
// STRATA_BENCH_NO_DEADLINE=1 runs either mode with `timeout = nil`.
//
// Not part of the tests or CI.

import AsyncHTTPClient
import Foundation
import Strata
import StrataAsyncHTTPClient
import StrataTestServer

@main
enum StrataBench {
    static func main() async {
        guard let options = Options.parse(Array(CommandLine.arguments.dropFirst())) else { exit(2) }
        if let soak = options.soak { exit(await Soak.run(soak)) }

        let server: TestServer
        do {
            server = try await TestServer.start()
        } catch {
            printError("strata-bench: the test server did not start: \(error)")
            exit(1)
        }
        let rawClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .strataDefault)
        let strataClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .strataDefault)
        var configuration = Networker.Configuration()
        if ProcessInfo.processInfo.environment["STRATA_BENCH_NO_DEADLINE"] != nil { configuration.timeout = nil }
        let networker = Networker(transport: AsyncHTTPClientTransport(client: strataClient), configuration: configuration)

        var failed = false
        do {
            try await runAll(options: options, baseURL: server.baseURL, rawClient: rawClient, networker: networker)
        } catch {
            printError("strata-bench: \(error)")
            failed = true
        }

        // Shut everything down whether or not the run succeeded.
        for client in [rawClient, strataClient] {
            do {
                try await client.shutdown()
            } catch {
                printError("strata-bench: client shutdown failed: \(error)")
                failed = true
            }
        }
        await server.shutdown()
        exit(failed ? 1 : 0)
    }

    static func runAll(options: Options, baseURL: URL, rawClient: HTTPClient, networker: Networker) async throws {
        print("strata-bench: \(options.requests) requests per case, \(options.warmup) warm-up, "
              + "median of \(options.repetitions), server \(baseURL.absoluteString)")
        let workloads = makeWorkloads(baseURL: baseURL, rawClient: rawClient, networker: networker,
                                      concurrency: options.concurrency)
        for workload in workloads {
            let rates = try await run(workload, options: options)
            print(formatRow(workload.name, variants: workload.variants, rates: rates))
        }
    }
}
