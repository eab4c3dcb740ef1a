import Foundation

/// The settings of `--websocket`.
struct WebSocketOptions: Sendable {
    /// Messages per throughput run (`--messages`).
    var messages = 20_000
    /// Sequential round trips per latency run (`--round-trips`).
    var roundTrips = 2_000
    /// Measured rounds (`--rounds`); each runs both sides once, the order rotated.
    var rounds = 10
    /// Where `--json` writes the results, if anywhere.
    var jsonPath: String?
}

// On Apple platforms the WebSocket bench is compiled out: its echo server,
// hummingbird-websocket, needs macOS 14 / iOS 17 / tvOS 17, above Strata's floor, so
// Strata links it on Linux only (Package.swift, Integration.linuxProduct).
#if WebSocket && canImport(HummingbirdWebSocket)
    import Hummingbird
    import HummingbirdWebSocket
    import Logging
    import NIOCore
    import Strata
    import StrataAsyncHTTPClient
    import StrataServerLifecycle
    import WSClient
    import WSCore

    #if canImport(Glibc)
        import Glibc
    #endif

    /// `strata-bench --websocket`: Strata's WebSockets (`Networker.webSocket` over
    /// `AsyncHTTPClientTransport`) against raw swift-websocket (`WSClient`'s
    /// `WebSocketClient.connect`), each over one connection of its own to the same echo
    /// server (hummingbird-websocket, in this process, on 127.0.0.1), in one run.
    ///
    /// Per side and round, alternately, the order rotated:
    /// 1. throughput: ``WebSocketOptions/messages`` text messages of ``payloadSize`` bytes
    ///    sent by one task while this one reads the echoes; echoed messages per second;
    /// 2. latency: ``WebSocketOptions/roundTrips`` sequential round trips (send one, wait
    ///    for its echo), p50 and p99 over every round;
    /// 3. the peak RSS growth of the process during the throughput run (`VmHWM`, reset
    ///    before each), and the process's peak RSS at the start, once both sides are
    ///    connected, and at the end.
    ///
    /// Every echo is checked against what was sent. Both sides have the same settings: no
    /// pings (Strata's `pingInterval = nil`; WSClient's `autoPing` `.disabled`, its
    /// default in 1.6, and the server's too), no compression, 1 MiB messages (Strata's default
    /// `maxMessageSize`; WSClient's `maxFrameSize` and `messages(maxSize:)`), text not
    /// validated by swift-websocket on either side (its default; Strata decodes the UTF-8
    /// itself), loggers at their default level.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    enum WebSocketBench {
        /// The size of every message, in bytes.
        static let payloadSize = 64
        /// The largest message either side reads: Strata's default.
        static let maxMessageSize = WebSocketConfiguration().maxMessageSize
        /// The least Strata's median messages/s should be, as a share of raw WSClient's.
        static let ratioTarget = 0.95
        /// Bytes in a MB, as the rest of the bench counts (2²⁰).
        static let megabyte = 1_048_576.0

        /// Runs the mode; returns the exit status: 1 when the server does not start, a side
        /// cannot connect, an echo differs from what was sent, or `--json` cannot be written.
        static func run(_ options: WebSocketOptions) async -> Int32 {
            let rssBefore = ProcessStats.peakResidentBytes()
            let peaks = PeakTracker()
            var report = WebSocketReport(
                date: ISO8601DateFormatter().string(from: Date()),
                machine: "\(ProcessInfo.processInfo.activeProcessorCount) cores, "
                    + ProcessInfo.processInfo.operatingSystemVersionString,
                server: "", payloadBytes: payloadSize, messages: options.messages, roundTrips: options.roundTrips,
                rounds: options.rounds,
                peakRSS: PeakResidentProbe.canResetPeak
                    ? "VmHWM, reset before each throughput run" : "n/a (VmHWM not resettable)")
            let payloads = makePayloads(max(options.messages, options.roundTrips))
            var connectedPeak: Int?
            do {
                try await EchoServer.with { url in
                    report.server = "hummingbird-websocket echo in this process, \(url)"
                    print(
                        "strata-bench --websocket: \(options.messages) messages of \(payloadSize) B per throughput run, "
                            + "\(options.roundTrips) round trips per latency run, \(options.rounds) rounds, order rotated; "
                            + "MB = 2^20 bytes")
                    print("server: \(report.server); the CPU column includes its work (both sides share 2 cores)")
                    (report.sides, connectedPeak) = try await measure(
                        options, payloads: payloads, url: url, peaks: peaks)
                }
            } catch {
                printError("strata-bench --websocket: \(error)")
                return 1
            }
            report.recordRSS(before: rssBefore, connected: connectedPeak, peak: peaks.overall())
            return printReport(report.table, report, jsonPath: options.jsonPath, mode: "--websocket")
        }

        /// One throughput run of `messages` by raw WSClient (`raw`) or Strata, for
        /// `--callgrind-case websocket-raw` and `websocket-strata`: its server, connection and
        /// close are the same whatever `messages`, so two counts' difference is the messages'.
        static func throughput(raw: Bool, messages: Int) async throws {
            try await EchoServer.with { url in
                let side = raw ? try await Side.raw(url: url) : try await Side.strata(url: url)
                do {
                    _ = try await side.throughput(makePayloads(messages))
                } catch {
                    await side.close()
                    throw error
                }
                await side.close()
            }
        }

        /// Messages `0 ..< count`, each ``payloadSize`` ASCII bytes: its number, then filler.
        static func makePayloads(_ count: Int) -> [String] {
            (0..<count).map { number in
                let head = "message \(number) "
                return head + String(repeating: "x", count: max(0, payloadSize - head.utf8.count))
            }
        }

        /// Connects both sides, warms them up, runs the rounds and closes them; returns the
        /// results and the process's peak RSS once both sides were connected.
        private static func measure(
            _ options: WebSocketOptions, payloads: [String], url: String, peaks: PeakTracker
        ) async throws -> ([WebSocketSideReport], connectedPeak: Int?) {
            let sides = [try await Side.raw(url: url), try await Side.strata(url: url)]
            let connectedPeak = ProcessStats.peakResidentBytes()
            let outcome: Result<([WebSocketSideReport], connectedPeak: Int?), any Error>
            do {
                outcome = .success(
                    (try await measure(sides, options: options, payloads: payloads, peaks: peaks), connectedPeak))
            } catch {
                outcome = .failure(error)
            }
            for side in sides { await side.close() }
            return try outcome.get()
        }

        private static func measure(
            _ sides: [Side], options: WebSocketOptions, payloads: [String], peaks: PeakTracker
        ) async throws -> [WebSocketSideReport] {
            let burst = Array(payloads.prefix(options.messages))
            let sequential = Array(payloads.prefix(options.roundTrips))
            var reports = sides.map { WebSocketSideReport(side: $0.name, messages: options.messages) }
            print("-- warm-up: a tenth of each run with each side")
            for side in sides {
                _ = try await side.throughput(Array(burst.prefix(max(1, burst.count / 10))))
                _ = try await side.latency(Array(sequential.prefix(max(1, sequential.count / 10))))
            }
            for round in 0..<options.rounds {
                for offset in sides.indices {
                    let index = (round + offset) % sides.count
                    let side = sides[index]
                    peaks.sample()
                    let probe = PeakResidentProbe()
                    let cpuBefore = ProcessStats.cpuTime()
                    let elapsed = try await side.throughput(burst)
                    let cpu = (ProcessStats.cpuTime() - cpuBefore).seconds
                    let growth = probe.growth()
                    let latencies = try await side.latency(sequential)
                    reports[index].add(
                        seconds: elapsed.seconds, cpuSeconds: cpu, peakGrowth: growth, latencies: latencies)
                    let rate = Double(burst.count) / elapsed.seconds
                    print(
                        "  \(side.name), round \(round + 1): "
                            + String(
                                format: "%.0f msgs/s, CPU %.1f µs/msg, p50 %.1f µs, p99 %.1f µs, peak RSS growth ",
                                rate,
                                cpu * 1e6 / Double(burst.count), percentile(latencies, 0.50),
                                percentile(latencies, 0.99)) + formatMBDelta(growth))
                }
            }
            return reports
        }

        /// Throws unless `text` is `payload` (the `index`th echo of `side`).
        static func check(_ text: String?, _ payload: String, _ index: Int, _ side: String) throws {
            guard text == payload else {
                throw BenchError(
                    description: "\(side): echo \(index) is \(text.map { "\"\($0)\"" } ?? "not text"), "
                        + "expected \"\(payload)\"")
            }
        }
    }

    /// One client and its one open connection to the echo server.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    private struct Side: Sendable {
        /// The side, for the report.
        var name: String
        /// Sends the payloads from a task of its own while the caller reads their echoes;
        /// returns the time from the first send to the last echo.
        var throughput: @Sendable (_ payloads: [String]) async throws -> Duration
        /// Sends each payload and waits for its echo before the next; returns each round
        /// trip's duration in µs.
        var latency: @Sendable (_ payloads: [String]) async throws -> [Double]
        /// Closes the connection (the close handshake) and lets the client go.
        var close: @Sendable () async -> Void

        /// Strata: `Networker(transport: AsyncHTTPClientTransport())` in the bench's
        /// configuration, `webSocket(_:configuration:)` without pings.
        static func strata(url: String) async throws -> Side {
            let name = "Strata Networker.webSocket"
            let transport = AsyncHTTPClientTransport()
            let networker = Networker(transport: transport, configuration: StrataBench.networkerConfiguration)
            var configuration = WebSocketConfiguration()
            configuration.pingInterval = nil
            configuration.maxMessageSize = WebSocketBench.maxMessageSize
            let socket: Strata.WebSocket
            do {
                socket = try await networker.webSocket(RequestDescription(route: url), configuration: configuration)
            } catch {
                try? await transport.shutdown()
                throw error
            }
            return Side(
                name: name,
                throughput: { payloads in
                    let clock = ContinuousClock()
                    let start = clock.now
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for payload in payloads { try await socket.send(text: payload) }
                        }
                        var messages = socket.messages.makeAsyncIterator()
                        for (index, payload) in payloads.enumerated() {
                            try WebSocketBench.check(text(try await messages.next()), payload, index, name)
                        }
                        try await group.waitForAll()
                    }
                    return start.duration(to: clock.now)
                },
                latency: { payloads in
                    let clock = ContinuousClock()
                    var latencies: [Double] = []
                    latencies.reserveCapacity(payloads.count)
                    var messages = socket.messages.makeAsyncIterator()
                    for (index, payload) in payloads.enumerated() {
                        let start = clock.now
                        try await socket.send(text: payload)
                        let echo = try await messages.next()
                        latencies.append(start.duration(to: clock.now).seconds * 1e6)
                        try WebSocketBench.check(text(echo), payload, index, name)
                    }
                    return latencies
                },
                close: {
                    await socket.close()
                    try? await transport.shutdown()
                })
        }

        /// The text of a Strata message; `nil` for a binary one or none.
        private static func text(_ message: Strata.WebSocketMessage?) -> String? {
            guard case .text(let text) = message else { return nil }
            return text
        }

        /// What the raw side's handler is asked to do, and where it answers.
        private enum Job: Sendable {
            case throughput([String], CheckedContinuation<Duration, any Error>)
            case latency([String], CheckedContinuation<[Double], any Error>)

            /// Answers the job with `error`.
            func fail(_ error: any Error) {
                switch self {
                case .throughput(_, let reply): reply.resume(throwing: error)
                case .latency(_, let reply): reply.resume(throwing: error)
                }
            }
        }

        /// Raw swift-websocket: `WebSocketClient.connect` with its defaults but a frame size
        /// of ``WebSocketBench/maxMessageSize`` and no pings, said explicitly. Its handler owns the connection: it runs
        /// the jobs it is handed, reading `inbound.messages(maxSize:)` itself and writing
        /// with `outbound.write(.text(_:))` (from a child task in the throughput job), and
        /// returns (the client then closes) when no job is left.
        static func raw(url: String) async throws -> Side {
            let name = "raw WSClient"
            let (jobs, submit) = AsyncStream.makeStream(of: Job.self)
            // nil once the handler runs; the error when the connection failed before.
            let (opened, open) = AsyncStream.makeStream(of: (any Error)?.self)
            let configuration = WebSocketClientConfiguration(
                maxFrameSize: WebSocketBench.maxMessageSize, autoPing: .disabled)
            let logger = Logger(label: "strata-bench.wsclient")
            let connection = Task {
                var failure: (any Error)?
                do {
                    try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) {
                        inbound, outbound, _ in
                        open.yield(nil)
                        var messages = inbound.messages(maxSize: WebSocketBench.maxMessageSize).makeAsyncIterator()
                        for await job in jobs {
                            switch job {
                            case .throughput(let payloads, let reply):
                                do {
                                    let clock = ContinuousClock()
                                    let start = clock.now
                                    try await withThrowingTaskGroup(of: Void.self) { group in
                                        group.addTask {
                                            for payload in payloads { try await outbound.write(.text(payload)) }
                                        }
                                        for (index, payload) in payloads.enumerated() {
                                            try WebSocketBench.check(
                                                text(try await messages.next()), payload, index, name)
                                        }
                                        try await group.waitForAll()
                                    }
                                    reply.resume(returning: start.duration(to: clock.now))
                                } catch {
                                    reply.resume(throwing: error)
                                    return
                                }
                            case .latency(let payloads, let reply):
                                do {
                                    let clock = ContinuousClock()
                                    var latencies: [Double] = []
                                    latencies.reserveCapacity(payloads.count)
                                    for (index, payload) in payloads.enumerated() {
                                        let start = clock.now
                                        try await outbound.write(.text(payload))
                                        let echo = try await messages.next()
                                        latencies.append(start.duration(to: clock.now).seconds * 1e6)
                                        try WebSocketBench.check(text(echo), payload, index, name)
                                    }
                                    reply.resume(returning: latencies)
                                } catch {
                                    reply.resume(throwing: error)
                                    return
                                }
                            }
                        }
                    }
                } catch {
                    failure = error
                }
                // The connection ended (or never opened): no job waits for it any more.
                open.yield(failure ?? BenchError(description: "\(name): the connection ended"))
                open.finish()
                submit.finish()
                for await job in jobs { job.fail(failure ?? BenchError(description: "\(name): the connection ended")) }
            }
            var first = opened.makeAsyncIterator()
            if case let error?? = await first.next() {
                throw error
            }
            let closed = Locked(false)
            @Sendable func run(_ job: Job) {
                if case .terminated = submit.yield(job) {
                    job.fail(BenchError(description: "\(name): the connection ended"))
                }
            }
            return Side(
                name: name,
                throughput: { payloads in
                    try await withCheckedThrowingContinuation { reply in run(.throughput(payloads, reply)) }
                },
                latency: { payloads in
                    try await withCheckedThrowingContinuation { reply in run(.latency(payloads, reply)) }
                },
                close: {
                    let first = closed.withLock { closed in
                        defer { closed = true }
                        return !closed
                    }
                    guard first else { return }
                    submit.finish()
                    await connection.value
                })
        }

        /// The text of a swift-websocket message; `nil` for a binary one or none.
        private static func text(_ message: WSCore.WebSocketMessage?) -> String? {
            guard case .text(let text) = message else { return nil }
            return text
        }
    }

    /// An in-process hummingbird-websocket server on 127.0.0.1 whose every socket echoes
    /// each message it reads, with no pings and no compression.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    private enum EchoServer {
        /// Starts the server, runs `body` with its URL (`ws://127.0.0.1:PORT/echo`), then
        /// stops it.
        static func with(_ body: (String) async throws -> Void) async throws {
            var logger = Logger(label: "strata-bench.websocket-server")
            logger.logLevel = .critical
            let server = try await InProcessServer.start(
                router: Router(),
                server: .http1WebSocketUpgrade(
                    configuration: .init(
                        ws: .init(maxFrameSize: WebSocketBench.maxMessageSize, autoPing: .disabled))
                ) { _, _, _ in
                    .upgrade([:]) { inbound, outbound, _ in
                        for try await message in inbound.messages(maxSize: WebSocketBench.maxMessageSize) {
                            switch message {
                            case .text(let text): try await outbound.write(.text(text))
                            case .binary(let bytes): try await outbound.write(.binary(bytes))
                            }
                        }
                    }
                },
                serverName: "strata-bench-websocket", logger: logger)
            let outcome: Result<Void, any Error>
            do {
                try await body("ws://127.0.0.1:\(server.port)/echo")
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            await server.shutdown()
            try outcome.get()
        }
    }

    // MARK: Peak RSS

    /// The process's highest `VmHWM` seen across resets: each `PeakResidentProbe` reads it before
    /// resetting it.
    private final class PeakTracker: Sendable {
        private let peak = Locked<Int?>(nil)

        /// Records the current `VmHWM`.
        func sample() {
            guard let current = ProcessStats.peakResidentBytes() else { return }
            peak.withLock { $0 = max($0 ?? current, current) }
        }

        /// The highest `VmHWM` so far, now included.
        func overall() -> Int? {
            sample()
            return peak.withLock { $0 }
        }
    }

    // MARK: Results

    /// The results of `--websocket`, printed as a table and written by `--json`.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    struct WebSocketReport: Codable, Sendable {
        /// When the run started (ISO 8601).
        var date: String
        /// Cores and OS, for the record.
        var machine: String
        /// The echo server and where it ran.
        var server: String
        /// The size of every message.
        var payloadBytes: Int
        /// Messages per throughput run.
        var messages: Int
        /// Round trips per latency run.
        var roundTrips: Int
        var rounds: Int
        /// How the peak RSS growth per run was measured.
        var peakRSS: String
        /// Raw WSClient, then Strata.
        var sides: [WebSocketSideReport] = []
        /// The process's peak RSS (`VmHWM`) when the mode started, once the server ran and
        /// both sides were connected, and the highest by the end, in MB; `nil` where
        /// unavailable.
        var peakRSSBeforeMB: Double?
        var peakRSSConnectedMB: Double?
        var peakRSSEndMB: Double?

        /// Strata's median messages/s over raw WSClient's; `nil` unless both ran.
        var ratio: Double? {
            guard sides.count == 2, sides[0].messagesPerSecond.median > 0 else { return nil }
            return sides[1].messagesPerSecond.median / sides[0].messagesPerSecond.median
        }

        /// Whether ``ratio`` meets ``WebSocketBench/ratioTarget``.
        var ratioTargetMet: Bool? { ratio.map { $0 >= WebSocketBench.ratioTarget } }

        mutating func recordRSS(before: Int?, connected: Int?, peak: Int?) {
            peakRSSBeforeMB = before.map { Double($0) / WebSocketBench.megabyte }
            peakRSSConnectedMB = connected.map { Double($0) / WebSocketBench.megabyte }
            peakRSSEndMB = peak.map { Double($0) / WebSocketBench.megabyte }
        }

        /// The results as an aligned table, the ratios and the target.
        var table: String {
            var lines = [
                "",
                "WebSocket echo, \(payloadBytes) B text messages, \(rounds) rounds (server: \(server))",
                row(
                    "side", "med msgs/s", "min msgs/s", "max msgs/s", "CPU µs/msg", "p50 µs", "p99 µs", "RSS med MB",
                    "RSS max MB"),
            ]
            for side in sides {
                lines.append(
                    row(
                        side.side, String(format: "%.0f", side.messagesPerSecond.median),
                        String(format: "%.0f", side.messagesPerSecond.min),
                        String(format: "%.0f", side.messagesPerSecond.max),
                        String(format: "%.1f", side.cpuMicrosPerMessage), String(format: "%.1f", side.latencyP50Micros),
                        String(format: "%.1f", side.latencyP99Micros),
                        side.peakGrowthMB.isEmpty ? "n/a" : String(format: "%+.1f", median(side.peakGrowthMB)),
                        side.peakGrowthMB.max().map { String(format: "%+.1f", $0) } ?? "n/a"))
            }
            if let ratio, let ratioTargetMet, sides.count == 2 {
                let (raw, strata) = (sides[0], sides[1])
                lines.append(
                    String(
                        format: "  ratio Strata/raw WSClient: throughput %.2f (target >= %.2f: %@), "
                            + "p50 latency %.2f, p99 latency %.2f, CPU per message %+.1f µs",
                        ratio, WebSocketBench.ratioTarget, ratioTargetMet ? "met" : "NOT MET",
                        strata.latencyP50Micros / raw.latencyP50Micros, strata.latencyP99Micros / raw.latencyP99Micros,
                        strata.cpuMicrosPerMessage - raw.cpuMicrosPerMessage))
            }
            func mb(_ value: Double?) -> String { value.map { String(format: "%.1f MB", $0) } ?? "n/a" }
            let runsGrowth =
                peakRSSConnectedMB.flatMap { connected in
                    peakRSSEndMB.map { String(format: "%+.1f MB", $0 - connected) }
                }
                ?? "n/a"
            lines.append(
                "  process peak RSS (VmHWM, server and both clients): \(mb(peakRSSBeforeMB)) at the start, "
                    + "\(mb(peakRSSConnectedMB)) once connected, \(mb(peakRSSEndMB)) at the end (\(runsGrowth) during the "
                    + "runs); per run: \(peakRSS)")
            return lines.joined(separator: "\n")
        }

        private func row(_ first: String, _ rest: String...) -> String { tableRow(first, rest) }
    }

    /// One side's rounds.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    struct WebSocketSideReport: Codable, Sendable {
        struct Spread: Codable, Sendable {
            var median: Double
            var min: Double
            var max: Double
        }

        var side: String
        /// Messages per throughput run.
        var messages: Int
        /// Each round's echoed messages per second.
        var runsMessagesPerSecond: [Double] = []
        /// The median, slowest and fastest round.
        var messagesPerSecond = Spread(median: 0, min: 0, max: 0)
        /// The median round's CPU time of the whole process (server included) per message, in µs.
        var cpuMicrosPerMessage = 0.0
        private var cpuRuns: [Double] = []
        /// Round-trip percentiles over every round trip of every round, in µs.
        var latencyP50Micros = 0.0
        var latencyP99Micros = 0.0
        private var latencies: [Double] = []
        /// Each round's peak RSS growth during the throughput run, in MB; empty where
        /// unavailable.
        var peakGrowthMB: [Double] = []

        private enum CodingKeys: String, CodingKey {
            case side, messages, runsMessagesPerSecond, messagesPerSecond, cpuMicrosPerMessage, latencyP50Micros
            case latencyP99Micros, peakGrowthMB
        }

        init(side: String, messages: Int) {
            self.side = side
            self.messages = messages
        }

        /// Adds a round.
        mutating func add(seconds: Double, cpuSeconds: Double, peakGrowth: Int?, latencies: [Double]) {
            runsMessagesPerSecond.append(Double(messages) / max(seconds, 1e-9))
            messagesPerSecond = Spread(
                median: median(runsMessagesPerSecond), min: runsMessagesPerSecond.min() ?? 0,
                max: runsMessagesPerSecond.max() ?? 0)
            cpuRuns.append(cpuSeconds * 1e6 / Double(max(messages, 1)))
            cpuMicrosPerMessage = median(cpuRuns)
            self.latencies += latencies
            latencyP50Micros = percentile(self.latencies, 0.50)
            latencyP99Micros = percentile(self.latencies, 0.99)
            if let peakGrowth { peakGrowthMB.append(Double(peakGrowth) / WebSocketBench.megabyte) }
        }
    }
#endif
