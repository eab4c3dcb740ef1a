import AsyncHTTPClient
import Foundation
import Strata
import StrataAsyncHTTPClient
import StrataTestServer

/// `strata-bench --soak`: a sustained load with `Networker.Configuration()`'s 60 s timeout,
/// sampling the resident memory, to show whether each exchange leaves something behind
/// (a timer still registered after its request finished, say).
///
/// The load runs in ten equal steps (of requests, or of time with `--seconds`); the first
/// is the warm-up. RSS is sampled after each step, when every request of the step has
/// finished, and the growth is measured from the end of the warm-up. Then the process
/// idles for `--idle-seconds` and reports the CPU time it used meanwhile: timers left by
/// finished requests still fire at their deadlines and show up there.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum Soak {
    /// Steps the load runs in; the first is the warm-up.
    static let steps = 10

    /// Runs the soak mode; returns the exit status: 1 when a request fails or, with
    /// `--max-growth-mb`, when RSS grows more than allowed.
    static func run(_ options: SoakOptions) async -> Int32 {
        let configuration = StrataBench.networkerConfiguration

        switch options.target {
        case .mock:
            let networker = Networker(transport: InstantTransport(), configuration: configuration)
            return await load(
                "workload A: Networker over an in-bench instant transport (no I/O)",
                options: options, timeout: configuration.timeout,
                request: getUser(networker, url: InstantTransport.userURL))
        case .server:
            let server: TestServer
            do {
                server = try await TestServer.start()
            } catch {
                printError("strata-bench: the test server did not start: \(error)")
                return 1
            }
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .strataDefault)
            let networker = Networker(transport: AsyncHTTPClientTransport(client: client), configuration: configuration)
            let url = server.baseURL.appendingPathComponent("json/user/1")
            var status = await load(
                "workload B: Networker over AsyncHTTPClient, server \(server.baseURL.absoluteString)",
                options: options, timeout: configuration.timeout,
                request: getUser(networker, url: url))
            do {
                try await client.shutdown()
            } catch {
                printError("strata-bench: client shutdown failed: \(error)")
                status = 1
            }
            await server.shutdown()
            return status
        }
    }

    /// One `GET` of the user at `url` through `networker`, decoded into the model and checked.
    static func getUser(_ networker: Networker, url: URL) -> @Sendable () async throws -> Void {
        return {
            let user = try await networker.send(Endpoint(RequestDescription(route: url), model: User.self))
            guard user.name == "User 1", !user.photos.isEmpty else {
                throw BenchError(description: "unexpected user \(user.name)")
            }
        }
    }

    /// Runs the load with `request`, samples, idles and reports; returns the exit status.
    static func load(
        _ title: String,
        options: SoakOptions,
        timeout: Duration?,
        request: @escaping @Sendable () async throws -> Void
    ) async -> Int32 {
        let length =
            switch options.length {
            case .requests(let total): "\(total) requests"
            case .seconds(let seconds): "\(seconds) s"
            }
        print("strata-bench --soak: \(title)")
        print(
            "  \(length) from \(options.concurrency) tasks, timeout \(timeout.map { "\(Int($0.seconds)) s" } ?? "none"), "
                + "RSS at start \(formatMB(ProcessStats.residentBytes()))")

        let clock = ContinuousClock()
        let start = clock.now
        var done = 0
        var afterWarmup: Int?
        var peak: Int?
        var final: Int?
        for step in 1...steps {
            let stepStart = clock.now
            let count: Int
            do {
                switch options.length {
                case .requests(let total):
                    count = total * step / steps - total * (step - 1) / steps
                    try await send(count, concurrency: options.concurrency, request: request)
                case .seconds(let seconds):
                    let end = start + .seconds(seconds) * step / steps
                    count = try await send(until: end, concurrency: options.concurrency, request: request)
                }
            } catch {
                printError("strata-bench --soak: a request failed after about \(done) requests: \(error)")
                return 1
            }
            done += count
            let rss = ProcessStats.residentBytes()
            if step == 1 { afterWarmup = rss }
            if let rss { peak = max(peak ?? rss, rss) }
            final = rss
            let rate = Double(count) / max(stepStart.duration(to: clock.now).seconds, 1e-9)
            let growth = step == 1 ? "(warm-up)" : formatMBDelta(difference(rss, afterWarmup))
            print(
                String(
                    format: "  %3d%%  %9d requests  %6.1f s  %7.0f req/s  ",
                    step * 100 / steps, done, start.duration(to: clock.now).seconds, rate)
                    + "RSS \(formatMB(rss))  \(growth)")
        }
        let elapsed = start.duration(to: clock.now).seconds
        let growth = difference(final, afterWarmup)
        print(
            String(
                format: "  done: %d requests in %.1f s, %.0f req/s", done, elapsed, Double(done) / max(elapsed, 1e-9)))
        print(
            "  RSS: after warm-up \(formatMB(afterWarmup)), peak \(formatMB(peak)) (VmHWM \(formatMB(ProcessStats.peakResidentBytes()))), "
                + "final \(formatMB(final)), growth after warm-up \(formatMBDelta(growth))")

        await idle(seconds: options.idleSeconds)
        if let timeout {
            // A timer a finished request leaves behind fires at its deadline: the first
            // ones `timeout` after the start. Say so when the idle period ended before that.
            let firstDeadline = start + timeout
            if clock.now < firstDeadline {
                let needed = Int(clock.now.duration(to: firstDeadline).seconds.rounded(.up)) + options.idleSeconds + 10
                print(
                    "  note: the first requests' deadlines fall after the idle period; "
                        + "--idle-seconds \(needed) covers them")
            }
        }

        guard let limit = options.maxGrowthMB else { return 0 }
        guard let growth else {
            print("  --max-growth-mb \(limit): not checked, RSS is not available on this platform")
            return 0
        }
        let growthMB = Double(growth) / 1_048_576
        guard growthMB <= limit else {
            print(
                String(
                    format: "  FAIL: RSS grew %.1f MB after the warm-up, more than --max-growth-mb %g", growthMB, limit)
            )
            return 1
        }
        print(String(format: "  ok: RSS grew %.1f MB after the warm-up, within --max-growth-mb %g", growthMB, limit))
        return 0
    }

    /// Sends `total` requests from `concurrency` tasks, spread as evenly as possible.
    static func send(_ total: Int, concurrency: Int, request: @escaping @Sendable () async throws -> Void) async throws
    {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<concurrency {
                let count = total / concurrency + (task < total % concurrency ? 1 : 0)
                guard count > 0 else { continue }
                group.addTask {
                    for _ in 0..<count { try await request() }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Sends requests from `concurrency` tasks until `end`; returns how many were sent.
    static func send(
        until end: ContinuousClock.Instant,
        concurrency: Int,
        request: @escaping @Sendable () async throws -> Void
    ) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var count = 0
                    while ContinuousClock.now < end {
                        try await request()
                        count += 1
                    }
                    return count
                }
            }
            var total = 0
            for try await count in group { total += count }
            return total
        }
    }

    /// Idles for `seconds`, sampling RSS and CPU time, and reports the CPU time used.
    static func idle(seconds: Int) async {
        guard seconds > 0 else { return }
        let interval = min(5, seconds)
        let cpuStart = ProcessStats.cpuTime()
        var cpuBefore = cpuStart
        var elapsed = 0
        print("  idle \(seconds) s after the load:")
        while elapsed < seconds {
            let step = min(interval, seconds - elapsed)
            try? await Deadline.sleep(for: .seconds(step))
            elapsed += step
            let cpu = ProcessStats.cpuTime()
            let used = (cpu - cpuBefore).seconds
            print(
                "    +\(elapsed) s  RSS \(formatMB(ProcessStats.residentBytes()))  "
                    + String(format: "CPU %.2f s (%.0f%% of a core)", used, used / Double(step) * 100))
            cpuBefore = cpu
        }
        let used = (ProcessStats.cpuTime() - cpuStart).seconds
        print(
            String(
                format: "  idle CPU: %.2f s user+sys in %d s (%.0f%% of a core)",
                used, seconds, used / Double(seconds) * 100))
    }

    private static func difference(_ value: Int?, _ base: Int?) -> Int? {
        guard let value, let base else { return nil }
        return value - base
    }
}
