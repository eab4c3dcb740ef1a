import Foundation
import Hummingbird
import Strata
import StrataAsyncHTTPClient
import StrataTestServer
import StrataURLSession

/// `--coalescing`'s settings.
struct CoalescingOptions: Sendable {
    /// Concurrent identical calls per burst (`--callers`).
    var callers = 1_000
    /// Measured rounds (`--rounds`); medians are printed.
    var rounds = 3
}

/// What `CoalescingMiddleware` saves: a burst of identical concurrent `GET`s to an
/// in-process server that holds each request 50 ms (a real backend's think time) and
/// counts them, without and with the step, over each transport: the requests the server
/// saw, the burst's wall time, the process CPU (the server's share included) and the
/// resident memory after each variant's rounds against before the first.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum CoalescingBench {
    static func run(_ options: CoalescingOptions) async -> Int32 {
        print("coalescing: \(options.callers) concurrent identical GETs, \(options.rounds) rounds, medians")
        let served = Locked(0)
        do {
            try await TestServer.with(configure: { router in
                router.get("coalescing-bench/profile") { _, _ in
                    served.withLock { $0 += 1 }
                    try await Deadline.sleep(for: .milliseconds(50))
                    return #"{"name":"Ada","visits":1}"#
                }
            }) { server in
                let endpoint = Endpoint<String>(
                    RequestDescription(route: server.baseURL.absoluteString + "/coalescing-bench/profile"))
                for transportName in ["AsyncHTTPClient", "URLSession"] {
                    let transport: any Transport =
                        transportName == "URLSession" ? URLSessionTransport() : AsyncHTTPClientTransport()
                    for coalescing in [false, true] {
                        let networker = Networker(
                            transport: transport, middleware: coalescing ? [CoalescingMiddleware()] : [],
                            configuration: StrataBench.networkerConfiguration)
                        var wall: [Double] = []
                        var cpu: [Double] = []
                        var requests: [Double] = []
                        let residentBefore = ProcessStats.residentBytes()
                        for _ in 0..<options.rounds {
                            served.withLock { $0 = 0 }
                            let clock = ContinuousClock.now
                            let start = ProcessStats.cpuTime()
                            let replies = try await withThrowingTaskGroup(of: Int.self) { group in
                                for _ in 0..<options.callers {
                                    group.addTask { try await networker.send(endpoint).utf8.count }
                                }
                                return try await group.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
                            }
                            cpu.append(GzipUploadBench.milliseconds(ProcessStats.cpuTime() - start))
                            wall.append(GzipUploadBench.milliseconds(ContinuousClock.now - clock))
                            requests.append(Double(served.withLock { $0 }))
                            guard replies == options.callers else {
                                printError("\(replies) of \(options.callers) calls answered")
                                return
                            }
                        }
                        print(
                            "  \(transportName) \(coalescing ? "coalesced" : "plain    "): "
                                + "\(Int(median(requests))) server requests, "
                                + "\(GzipUploadBench.format(median(wall))) ms wall, "
                                + "\(GzipUploadBench.format(median(cpu))) ms CPU, RSS "
                                + formatMBDelta(
                                    ProcessStats.residentBytes().flatMap { after in residentBefore.map { after - $0 } })
                        )
                    }
                    if let client = transport as? AsyncHTTPClientTransport { try await client.shutdown() }
                }
            }
        } catch {
            printError("coalescing bench failed: \(error)")
            return 1
        }
        return 0
    }
}
