import Foundation

/// The command line, parsed by hand (see ``usage``).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
struct Options: Sendable {
    /// What the run does.
    enum Mode: Sendable {
        /// The pairs harness (the default).
        case pairs
        /// `--soak`: the sustained-load mode.
        case soak(SoakOptions)
        /// `--sse`: the stream parsers' throughput, end to end and memory (StreamBench.swift).
        case sse(SSEOptions)
        /// `--download`: a file downloaded by raw AsyncHTTPClient and by Strata
        /// (DownloadBench.swift).
        case download(DownloadOptions)
        /// `--websocket`: WebSocket messages/s and round trips of raw WSClient and of Strata
        /// (WebSocketBench.swift).
        case webSocket(WebSocketOptions)
        /// `--gzip-upload`: compressed uploads, bytes on the wire and CPU per MB
        /// (GzipUploadBench.swift).
        case gzipUpload(UploadBenchOptions)
        /// `--resumable-upload`: a resumable upload against a plain `PUT` of the same file
        /// (ResumableUploadBench.swift); takes `--upload-mb` and `--rounds`.
        case resumableUpload(UploadBenchOptions)
        /// `--coalescing`: identical concurrent calls with and without coalescing
        /// (CoalescingBench.swift).
        case coalescing(CoalescingOptions)
        /// `--serve` (hidden): the bench server, for the pairs harness's separate process.
        case serve
        /// `--callgrind-case NAME --iterations N` (hidden): one case, `N` times, for
        /// `scripts/callgrind.sh`.
        case callgrind(name: String, iterations: Int)
    }

    var mode = Mode.pairs
    /// Measured requests of a small workload per variant and round; the 1 MB workload
    /// sends a twentieth of that (at least two per task).
    var requests = 2000
    /// Measured rounds per workload; each round runs every variant once, the order rotated.
    var rounds = 5
    /// Which groups of the harness run.
    var groups = Set(PairGroup.allCases)
    /// Whether the server runs in this process rather than in a child process.
    var inProcess = false
    /// Where `--json` writes the results, if anywhere.
    var jsonPath: String?

    /// Parses `arguments` (without the program name); `nil` with a message on stderr when invalid.
    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var isSoak = false
        var soak = SoakOptions()
        var isSSE = false
        var sse = SSEOptions()
        var sseOnly: [String] = []
        var isDownload = false
        var download = DownloadOptions()
        var downloadOnly: [String] = []
        var isWebSocket = false
        var isGzipUpload = false
        var isResumableUpload = false
        var isCoalescing = false
        var coalescing = CoalescingOptions()
        var gzipUpload = UploadBenchOptions()
        var webSocket = WebSocketOptions()
        var webSocketOnly: [String] = []
        var rounds: Int?
        var only: String?
        var requests: Int?
        var seconds: Int?
        var soakOnly: [String] = []
        var pairsOnly: [String] = []
        var callgrindCase: String?
        var iterations = 1
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--requests":
                guard let count = positiveInteger(after: argument, in: &rest) else { return nil }
                requests = count
            case "--soak":
                isSoak = true
            case "--sse":
                isSSE = true
            case "--download":
                isDownload = true
            case "--websocket":
                isWebSocket = true
            case "--gzip-upload":
                isGzipUpload = true
            case "--resumable-upload":
                isResumableUpload = true
            case "--coalescing":
                isCoalescing = true
            case "--callers":
                guard let count = positiveInteger(after: argument, in: &rest) else { return nil }
                coalescing.callers = count
            case "--upload-mb":
                guard let count = positiveInteger(after: argument, in: &rest) else { return nil }
                gzipUpload.megabytes = count
            case "--messages":
                guard let count = positiveInteger(after: argument, in: &rest) else { return nil }
                webSocket.messages = count
                webSocketOnly.append(argument)
            case "--round-trips":
                guard let count = positiveInteger(after: argument, in: &rest) else { return nil }
                webSocket.roundTrips = count
                webSocketOnly.append(argument)
            case "--download-mb":
                guard let count = positiveInteger(after: argument, in: &rest) else { return nil }
                guard count <= BenchServer.downloadLimitMB else {
                    printError("\(argument) is at most \(BenchServer.downloadLimitMB)")
                    return nil
                }
                download.megabytes = count
                downloadOnly.append(argument)
            case "--events":
                guard let count = positiveInteger(after: argument, in: &rest) else { return nil }
                sse.events = count
                sseOnly.append(argument)
            case "--server":
                soak.target = .server
                soakOnly.append(argument)
            case "--seconds":
                guard let count = positiveInteger(after: argument, in: &rest) else { return nil }
                seconds = count
                soakOnly.append(argument)
            case "--concurrency":
                guard let count = positiveInteger(after: argument, in: &rest) else { return nil }
                soak.concurrency = count
                soakOnly.append(argument)
            case "--idle-seconds":
                guard let count: Int = nonNegative(after: argument, in: &rest, "integer") else { return nil }
                soak.idleSeconds = count
                soakOnly.append(argument)
            case "--max-growth-mb":
                guard let limit: Double = nonNegative(after: argument, in: &rest, "number") else { return nil }
                soak.maxGrowthMB = limit
                soakOnly.append(argument)
            case "--rounds":
                guard let count = positiveInteger(after: argument, in: &rest) else { return nil }
                options.rounds = count
                rounds = count
                pairsOnly.append(argument)
            case "--quick":
                requests = requests ?? 300
                options.rounds = 3
                pairsOnly.append(argument)
            case "--only":
                guard let text = rest.popFirst() else {
                    printError("\(argument) needs a list of groups (of parts with --sse, of variants with --download)")
                    return nil
                }
                only = text  // groups, parts with --sse, variants with --download: read once the mode is known
                pairsOnly.append(argument)
            case "--in-process":
                options.inProcess = true
                pairsOnly.append(argument)
            case "--json":
                guard let path = rest.popFirst() else {
                    printError("--json needs a path")
                    return nil
                }
                options.jsonPath = path
                pairsOnly.append(argument)
            case "--serve":
                options.mode = .serve
            case "--callgrind-case":
                guard let name = rest.popFirst() else {
                    printError(
                        "--callgrind-case needs a name: \(CallgrindCase.allCases.map(\.rawValue).joined(separator: ", "))"
                    )
                    return nil
                }
                callgrindCase = name
            case "--iterations":
                guard let count = positiveInteger(after: argument, in: &rest) else { return nil }
                iterations = count
            case "-h", "--help":
                print(usage)
                exit(0)
            default:
                printError("unknown argument \(argument)\n\(usage)")
                return nil
            }
        }

        if let callgrindCase {
            options.mode = .callgrind(name: callgrindCase, iterations: iterations)
            return options
        }
        if case .serve = options.mode { return options }
        if isCoalescing {
            // --coalescing takes --callers and --rounds only.
            if let rounds { coalescing.rounds = rounds }
            options.mode = .coalescing(coalescing)
            return options
        }
        if isGzipUpload || isResumableUpload {
            // --gzip-upload and --resumable-upload take --upload-mb and --rounds only.
            if let rounds { gzipUpload.rounds = rounds }
            options.mode = isGzipUpload ? .gzipUpload(gzipUpload) : .resumableUpload(gzipUpload)
            return options
        }
        if isWebSocket {
            // --websocket shares --rounds and --json with the pairs; nothing else.
            let shared: Set = ["--rounds", "--json"]
            var others =
                (isSoak ? ["--soak"] : []) + (isSSE ? ["--sse"] : []) + (isDownload ? ["--download"] : [])
                + soakOnly + sseOnly + downloadOnly + pairsOnly.filter { !shared.contains($0) }
            if arguments.contains("--requests") { others.append("--requests") }
            if let first = others.first {
                printError("\(first) cannot be combined with --websocket\n\(usage)")
                return nil
            }
            if let rounds { webSocket.rounds = rounds }
            webSocket.jsonPath = options.jsonPath
            options.mode = .webSocket(webSocket)
            return options
        }
        if let first = webSocketOnly.first {
            printError("\(first) needs --websocket\n\(usage)")
            return nil
        }
        if isDownload {
            // --download shares --rounds, --only, --in-process and --json with the pairs; nothing else.
            let shared: Set = ["--rounds", "--in-process", "--json", "--only"]
            var others =
                (isSoak ? ["--soak"] : []) + (isSSE ? ["--sse"] : []) + soakOnly + sseOnly
                + pairsOnly.filter { !shared.contains($0) }
            if arguments.contains("--requests") { others.append("--requests") }
            if let first = others.first {
                printError("\(first) cannot be combined with --download\n\(usage)")
                return nil
            }
            if let only {
                guard let variants = list(only, of: DownloadVariant.self, "--only", "variant") else { return nil }
                download.variants = variants
            }
            if let rounds { download.rounds = rounds }
            download.inProcess = options.inProcess
            download.jsonPath = options.jsonPath
            options.mode = .download(download)
            return options
        }
        if let first = downloadOnly.first {
            printError("\(first) needs --download\n\(usage)")
            return nil
        }
        if isSSE {
            // --sse shares --quick, --only, --in-process and --json with the pairs; nothing else.
            let shared: Set = ["--quick", "--in-process", "--json", "--only"]
            var others = (isSoak ? ["--soak"] : []) + soakOnly + pairsOnly.filter { !shared.contains($0) }
            if arguments.contains("--requests") { others.append("--requests") }
            if let first = others.first {
                printError("\(first) cannot be combined with --sse\n\(usage)")
                return nil
            }
            if let only {
                guard let parts = list(only, of: SSEOptions.Part.self, "--only", "part") else { return nil }
                sse.parts = parts
            }
            sse.quick = pairsOnly.contains("--quick")
            sse.inProcess = options.inProcess
            sse.jsonPath = options.jsonPath
            options.mode = .sse(sse)
            return options
        }
        if let first = sseOnly.first {
            printError("\(first) needs --sse\n\(usage)")
            return nil
        }
        if let only {
            guard let groups = list(only, of: PairGroup.self, "--only", "group") else { return nil }
            options.groups = groups
        }
        guard isSoak else {
            if let first = soakOnly.first {
                printError("\(first) needs --soak\n\(usage)")
                return nil
            }
            if let requests { options.requests = requests }
            return options
        }
        if let first = pairsOnly.first {
            printError("\(first) cannot be combined with --soak\n\(usage)")
            return nil
        }
        switch (requests, seconds) {
        case (let requests?, nil): soak.length = .requests(requests)
        case (nil, let seconds?): soak.length = .seconds(seconds)
        case (nil, nil): soak.length = soak.target == .mock ? .requests(200_000) : .seconds(30)
        case (_?, _?):
            printError("--requests and --seconds cannot be combined")
            return nil
        }
        options.mode = .soak(soak)
        return options
    }

    static let usage = """
        usage: swift run -c release --enable-all-traits strata-bench [--requests N] [--rounds R] [--quick]
                 [--only GROUPS] [--in-process] [--json PATH]
                 the pairs: raw AsyncHTTPClient vs Strata over it, raw URLSession vs Strata
                 over URLSessionTransport, Strata over an in-memory transport with 0 vs 5
                 pass-through middleware, plain JSONDecoder vs Strata's two-layer parse;
                 workloads: GET of a ~200 B user into a model, GET of a 1 MB photo list
                 mapped through both model layers, a form POST (.formURL); at concurrency
                 1 and 16 (and 64 on AsyncHTTPClient). Per variant and workload: req/s
                 median (min-max over rounds), p50/p99 latency, client CPU per request
                 (getrusage), the ratio Strata/raw, and the issue's targets, met or not.
                 N: requests per small workload, variant and round (default 2000; the 1 MB
                   workload sends N/20); R: rounds (default 5), the order rotated each round
                 --quick: N 300 (unless given) and 3 rounds, for a smoke run
                 GROUPS: comma-separated of ahc, urlsession, mock, decode, cache-memory,
                   cache-sqlite, inline, limit, openapi, grpc (default all)
                 openapi: the demo API's generated client (StrataDemoOpenAPI) over
                   swift-openapi-async-http-client vs over Strata (NetworkerTransport over
                   AsyncHTTPClientTransport), each on its own HTTPClient: getUser (GET
                   /users/1) and registerUser (POST /user/register, JSON) at c1 and c16
                 grpc: the demo's generated grpc-swift client vs GRPCNetworker, and with
                   grpc-swift's retry policy vs with GRPCRetryInterceptor, a unary GetUser
                   to the in-process demo gRPC server at c1 and c16
                 --in-process: the server runs in this process (its CPU then counts as the
                   client's); by default the bench starts itself with --serve as a child
                 --json PATH: the same results as JSON, with a ratio per pair and workload
               swift run -c release --enable-all-traits strata-bench --soak [--server] [--requests N | --seconds S]
                 [--concurrency C] [--idle-seconds S] [--max-growth-mb X]
                 sustained load with the default 60 s timeout, sampling RSS:
                 a Networker over an in-bench instant transport (default 200000 requests),
                 or with --server over AsyncHTTPClient against the test server (default 30 s);
                 C tasks (default 16); S seconds idle after the load (default 5);
                 exits 1 when RSS grows more than X MB after the warm-up
               swift run -c release --enable-all-traits strata-bench --sse [--events N] [--quick] [--only PARTS]
                 [--in-process] [--json PATH]
                 the stream parsers: MB/s of Strata's serverSentEvents() vs
                 swift-openapi-runtime's asDecodedServerSentEvents() on the same 100 MB in
                 memory (3 runs each, alternately), and of lines(), jsonLines(of:) and
                 jsonSequence(of:); events/s of Networker.events over each transport from
                 the bench server's GET /sse/N (N default 1000000); peak RSS growth while
                 1 GiB goes through each parser (target < 32 MB)
                 --quick: 10 MB per throughput run and 64 MB per memory run
                 PARTS: comma-separated of memory, parse, loopback (default all)
               swift run -c release --enable-all-traits strata-bench --download [--download-mb N] [--rounds R]
                 [--only VARIANTS] [--in-process] [--json PATH]
                 a file of N MiB (default 256) from the bench server's GET /download/N,
                 written to a temporary file by raw AsyncHTTPClient (FileDownloadDelegate),
                 by Strata's Networker.download over AsyncHTTPClientTransport, and by
                 Strata's over URLSessionTransport; R rounds (default 3), the order rotated.
                 Per variant: MB/s median (min-max), client CPU, peak RSS growth during the
                 download (VmHWM, reset before each); the ratio Strata/raw (target >= 0.95).
                 Every file's size is checked (exit 1 if wrong) and the file deleted.
                 VARIANTS: comma-separated of raw, strata, urlsession (default all);
                 a failure of urlsession (no back-pressure on Linux) is reported, not fatal
               swift run -c release --enable-all-traits strata-bench --coalescing [--callers N] [--rounds R]
                 CoalescingMiddleware: N (default 1000) concurrent identical GETs to an in-process
                 server that holds each 50 ms, without and with the step, over each transport:
                 the requests the server saw, wall time and process CPU; R rounds (default 3), medians
               swift run -c release --enable-all-traits strata-bench --gzip-upload [--upload-mb N] [--rounds R]
               swift run -c release --enable-all-traits strata-bench --resumable-upload [--upload-mb N] [--rounds R]
                 RequestCompressionMiddleware: CPU per MB of gzip alone at levels 1, 6 and 9 on
                 N MiB (default 64) of log-like text and of random bytes, then N MiB uploaded
                 plain and gzipped over each transport to an in-process server that counts
                 the bytes on the wire; R rounds (default 3), medians
                 [--rounds R] [--json PATH]
                 raw WSClient (swift-websocket) vs Strata's Networker.webSocket over
                 AsyncHTTPClientTransport, one connection each to the same in-process
                 hummingbird-websocket echo server on 127.0.0.1, no pings, 64 B text
                 messages; per side and round, alternately: N messages (default 20000) sent
                 by one task while another reads the echoes (echoed msgs/s), then M
                 sequential round trips (default 2000; p50/p99 µs over all rounds); CPU per
                 message (the whole process, server included), peak RSS growth during each
                 throughput run (VmHWM, reset before each) and the process's peak RSS; the
                 ratio Strata/raw of the median msgs/s (target >= 0.95). R: rounds (default 10)
               scripts/callgrind.sh: instructions and allocations per request (valgrind)
        """

    /// The comma-separated names of `text` as a set of `Item`s (groups or parts, as
    /// `kind` says); `nil` with a message on stderr for an unknown name or none.
    private static func list<Item: RawRepresentable & CaseIterable & Hashable>(
        _ text: String, of _: Item.Type, _ flag: String, _ kind: String
    ) -> Set<Item>? where Item.RawValue == String {
        var items = Set<Item>()
        for name in text.split(separator: ",") {
            guard let item = Item(rawValue: String(name)) else {
                printError(
                    "\(flag): unknown \(kind) \(name); known: \(Item.allCases.map(\.rawValue).joined(separator: ", "))"
                )
                return nil
            }
            items.insert(item)
        }
        return items.isEmpty ? nil : items
    }

    private static func nonNegative<Value: LosslessStringConvertible & Comparable & Numeric>(
        after flag: String, in rest: inout ArraySlice<String>, _ kind: String
    ) -> Value? {
        guard let text = rest.popFirst(), let value = Value(text), value >= .zero else {
            printError("\(flag) needs a non-negative \(kind)")
            return nil
        }
        return value
    }

    private static func positiveInteger(after flag: String, in rest: inout ArraySlice<String>) -> Int? {
        guard let value = rest.popFirst(), let count = Int(value), count > 0 else {
            printError("\(flag) needs a positive integer")
            return nil
        }
        return count
    }
}

/// The settings of `--soak`.
struct SoakOptions: Sendable {
    /// What the load runs against.
    enum Target: Sendable {
        /// A `Networker` over ``InstantTransport``: no I/O (workload A).
        case mock
        /// A `Networker` over `AsyncHTTPClientTransport` against the test server (workload B).
        case server
    }

    /// How long the load lasts.
    enum Length: Sendable {
        case requests(Int)
        case seconds(Int)
    }

    var target = Target.mock
    var length = Length.requests(200_000)
    /// Tasks sending requests at once.
    var concurrency = 16
    /// Seconds to keep sampling after the load stops.
    var idleSeconds = 5
    /// With `--max-growth-mb`: the most RSS may grow after the warm-up before the run fails.
    var maxGrowthMB: Double?
}

/// Writes `message` and a newline to stderr.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
