import Foundation
import Strata
import StrataTestServer
import Testing

/// Figures for large and endless bodies on both transports (time to the error, peak
/// resident growth, when the server saw the connection close), printed as `MEASURE`
/// lines. Not a test: it runs only when `STRATA_MEASURE` is set, as in
/// `STRATA_MEASURE=1 swift test --skip-build --filter StreamingMeasurements`.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["STRATA_MEASURE"] != nil))
struct StreamingMeasurements {
    /// `Networker.send` with a 32 MiB limit and a 3 s deadline.
    @Test(arguments: ["/declared/2147483648/declared", "/endless/endless"])
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func limitedBody(path: String) async throws {
        try await TestServer.withStreamingRoutes { server, probe in
            for kind in TransportKind.allCases {
                try await kind.with { transport in
                    var configuration = Networker.Configuration()
                    configuration.maxResponseBodySize = 32 * 1024 * 1024
                    configuration.timeout = .seconds(3)
                    let endpoint = Endpoint<Data>(
                        RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: path)))
                    let memory = ProcessMemory.Watch()
                    let start = ContinuousClock.now
                    var outcome = "no error"
                    do {
                        _ = try await Networker(transport: transport, configuration: configuration).send(endpoint)
                    } catch {
                        outcome = (error as? StrataError).map { "\($0.kind)" } ?? "\(error)"
                    }
                    let failedAfter = ContinuousClock.now - start
                    let ended = await probe.nextEndedWriter(within: .seconds(20))
                    print(
                        "MEASURE \(kind) \(path): \(outcome) after \(failedAfter), peak RSS growth \(memory.growthDescription), "
                            + "server saw the close after \(ContinuousClock.now - start) (\(ended ?? "not seen"))")
                }
            }
        }
    }

    /// `Networker.stream` of an endless body read as fast as it comes, with a 1 s deadline.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func deadlineOnAStreamedBody() async throws {
        try await TestServer.withStreamingRoutes { server, probe in
            for kind in TransportKind.allCases {
                try await kind.with { transport in
                    var configuration = Networker.Configuration()
                    configuration.timeout = .seconds(1)
                    let endpoint = Endpoint<Data>(
                        RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: "/endless/deadline")))
                    let memory = ProcessMemory.Watch()
                    let start = ContinuousClock.now
                    let (_, body) = try await Networker(transport: transport, configuration: configuration).stream(
                        endpoint)
                    var received = 0
                    var outcome = "no error"
                    do {
                        for try await chunk in body { received += chunk.count }
                    } catch {
                        outcome = "\(error)"
                    }
                    let failedAfter = ContinuousClock.now - start
                    let ended = await probe.nextEndedWriter(within: .seconds(20))
                    print(
                        "MEASURE \(kind) stream, 1 s deadline: \(outcome) after \(failedAfter), \(received >> 20) MiB read, "
                            + "peak RSS growth \(memory.growthDescription), server saw the close after \(ContinuousClock.now - start) "
                            + "(\(ended ?? "not seen"))")
                }
            }
        }
    }

    /// How long a small request on the same transport takes while another request's
    /// endless body is read as fast as it comes.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func smallRequestBesideAFlood() async throws {
        try await TestServer.withStreamingRoutes { server, probe in
            for kind in TransportKind.allCases {
                try await kind.with { transport in
                    var configuration = Networker.Configuration()
                    configuration.timeout = .seconds(3)
                    let networker = Networker(transport: transport, configuration: configuration)
                    let flood = Endpoint<Data>(
                        RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: "/endless/beside")))
                    let (_, body) = try await networker.stream(flood)
                    let reader = Task {
                        var received = 0
                        do { for try await chunk in body { received += chunk.count } } catch {}
                        return received
                    }
                    var latencies: [String] = []
                    for _ in 0..<5 {
                        let start = ContinuousClock.now
                        let small = Endpoint<Data>(
                            RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: "/echo/small")))
                        do {
                            _ = try await networker.send(small)
                            latencies.append("\(ContinuousClock.now - start)")
                        } catch {
                            latencies.append(
                                "\((error as? StrataError).map { "\($0.kind)" } ?? "\(error)") after \(ContinuousClock.now - start)"
                            )
                        }
                    }
                    reader.cancel()
                    let received = await reader.value
                    _ = await probe.nextEndedWriter(within: .seconds(20))
                    print(
                        "MEASURE \(kind) small requests beside a flood: \(latencies.joined(separator: ", ")); flood read \(received >> 20) MiB"
                    )
                }
            }
        }
    }
}
