// strata-bench: what Strata costs on top of its transport. See Benchmarks.md and `--help`.
//
//     swift run -c release --enable-all-traits strata-bench                    # the pairs, ~5 minutes
//     swift run -c release --enable-all-traits strata-bench --quick            # a smoke run
//     swift run -c release --enable-all-traits strata-bench --json out.json    # and the results as JSON
//
// The pairs (Harness.swift), each run in one process in alternating rounds, the order
// rotated: raw AsyncHTTPClient vs Strata over it; raw URLSession vs Strata over
// URLSessionTransport; Strata over an in-memory transport with 0 vs 5 pass-through
// middleware; plain JSONDecoder vs Strata's two-layer parse; the demo API's generated
// OpenAPI client over swift-openapi-async-http-client vs over Strata (`--only openapi`).
// The server runs in a child process (this executable with the hidden `--serve`) unless
// `--in-process`.
//
// Sustained load, memory and timers (Soak.swift), as .ci/run calls it:
//
//     strata-bench --soak --requests 200000 --max-growth-mb 20 --idle-seconds 0
//
// The stream parsers (StreamBench.swift): throughput against swift-openapi-runtime's,
// events/s over loopback on both transports, and memory for 1 GiB:
//
//     strata-bench --sse
//
// Downloads to a file (DownloadBench.swift): MB/s and peak RSS of raw AsyncHTTPClient's
// FileDownloadDelegate against Strata's Networker.download over each transport, a file of
// N MiB (default 256) from the bench server's GET /download/N, in alternating rounds:
//
//     strata-bench --download [--download-mb N] [--rounds 3]
//
// Compressed uploads (GzipUploadBench.swift): CPU per MB of gzip at levels 1, 6 and 9, and
// bytes on the wire and CPU per MB of N MiB uploaded plain and gzipped over each transport:
//
//     strata-bench --gzip-upload [--upload-mb 64] [--rounds 3]
//     strata-bench --resumable-upload [--upload-mb 64] [--rounds 3]
//
// Coalescing (CoalescingBench.swift): N concurrent identical GETs without and with
// CoalescingMiddleware over each transport: server requests, wall time, CPU:
//
//     strata-bench --coalescing [--callers 1000] [--rounds 3]
//
// WebSockets (WebSocketBench.swift, the WebSocket trait): messages/s and round-trip latency of
// raw WSClient against Strata's Networker.webSocket over AsyncHTTPClientTransport, one
// connection each to the same in-process echo server, in alternating rounds:
//
//     strata-bench --websocket [--messages 20000] [--round-trips 2000] [--rounds 10]
//
// Instruction and allocation counts: scripts/callgrind.sh, which runs the hidden
// `--callgrind-case NAME --iterations N` (CallgrindCase.swift) under valgrind.
//
// STRATA_BENCH_NO_DEADLINE=1 runs every mode's Strata variants with `timeout = nil`.
// Not part of the tests or CI (but for the soak).

import Foundation
import Strata

@main
enum StrataBench {
    static func main() {
        // The bench's server is Hummingbird 2's; the entry point itself stays at the
        // package's floor, as `@main` requires.
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *) else {
            print("strata-bench needs macOS 14, iOS 17 or tvOS 17")
            exit(2)
        }
        guard let options = Options.parse(Array(CommandLine.arguments.dropFirst())) else { exit(2) }
        if case .callgrind(let name, let iterations) = options.mode {
            // valgrind 3.19 crashes once the main thread parks in `dispatchMain()` (as an
            // async `main` does) and a worker thread starts; so the main thread waits on a
            // semaphore instead.
            let done = DispatchSemaphore(value: 0)
            let status = Locked<Int32>(1)
            Task.detached {
                let result = await CallgrindCase.run(name, iterations: iterations)
                status.withLock { $0 = result }
                done.signal()
            }
            done.wait()
            exit(status.withLock { $0 })
        }
        Task {
            switch options.mode {
            case .soak(let soak): exit(await Soak.run(soak))
            case .sse(let sse): exit(await StreamBench.run(sse))
            case .download(let download): exit(await DownloadBench.run(download))
            case .gzipUpload(let gzipUpload): exit(await GzipUploadBench.run(gzipUpload))
            case .resumableUpload(let upload): exit(await ResumableUploadBench.run(upload))
            case .coalescing(let coalescing): exit(await CoalescingBench.run(coalescing))
            case .webSocket(let webSocket):
                #if WebSocket && canImport(HummingbirdWebSocket)
                    exit(await WebSocketBench.run(webSocket))
                #else
                    _ = webSocket
                    printError(
                        "strata-bench --websocket needs the WebSocket trait (--enable-all-traits) and Linux: "
                            + "its echo server, hummingbird-websocket, is linked on Linux only")
                    exit(2)
                #endif
            case .serve: exit(await BenchServer.serve())
            case .callgrind: exit(2)
            case .pairs: exit(await Harness.run(options))
            }
        }
        dispatchMain()
    }

    /// The client configuration of every Strata variant: the default, or without a
    /// deadline when `STRATA_BENCH_NO_DEADLINE` is set.
    static var networkerConfiguration: Networker.Configuration {
        var configuration = Networker.Configuration()
        if !deadlineOn { configuration.timeout = nil }
        return configuration
    }

    /// Whether the Strata variants keep the default deadline.
    static var deadlineOn: Bool { ProcessInfo.processInfo.environment["STRATA_BENCH_NO_DEADLINE"] == nil }
}
