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
    func limitedBody(path: String) async throws {
        let probe = StreamProbe()
        try await TestServer.with(configure: { StreamingRoutes.register(on: $0, probe: probe) }) { server in
            for kind in TransportKind.allCases {
                try await kind.with { transport in
                    var configuration = Networker.Configuration()
                    configuration.maxResponseBodySize = 32 * 1024 * 1024
                    configuration.timeout = .seconds(3)
                    let endpoint = Endpoint<Data>(RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: path)))
                    let memory = ProcessMemory.Watch()
                    let start = ContinuousClock.now
                    var outcome = "no error"
                    do {
                        _ = try await Networker(transport: transport, configuration: configuration).send(endpoint)
                    } catch {
                        outcome = (error as? StrataError).map { "\($0.kind)" } ?? "\(error)"
                    }
                    let failedAfter = ContinuousClock.now - start
                    let ended = await URLSessionStreamingTests.nextEnded(probe, within: .seconds(20))
                    print("MEASURE \(kind) \(path): \(outcome) after \(failedAfter), peak RSS growth \(memory.growth >> 20) MiB, "
                        + "server saw the close after \(ContinuousClock.now - start) (\(ended ?? "not seen"))")
                }
            }
        }
    }

    /// `Networker.stream` of an endless body read as fast as it comes, with a 1 s deadline.
    @Test func deadlineOnAStreamedBody() async throws {
        let probe = StreamProbe()
        try await TestServer.with(configure: { StreamingRoutes.register(on: $0, probe: probe) }) { server in
            for kind in TransportKind.allCases {
                try await kind.with { transport in
                    var configuration = Networker.Configuration()
                    configuration.timeout = .seconds(1)
                    let endpoint = Endpoint<Data>(RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: "/endless/deadline")))
                    let memory = ProcessMemory.Watch()
                    let start = ContinuousClock.now
                    let (_, body) = try await Networker(transport: transport, configuration: configuration).stream(endpoint)
                    var received = 0
                    var outcome = "no error"
                    do {
                        for try await chunk in body { received += chunk.count }
                    } catch {
                        outcome = "\(error)"
                    }
                    let failedAfter = ContinuousClock.now - start
                    let ended = await URLSessionStreamingTests.nextEnded(probe, within: .seconds(20))
                    print("MEASURE \(kind) stream, 1 s deadline: \(outcome) after \(failedAfter), \(received >> 20) MiB read, "
                        + "peak RSS growth \(memory.growth >> 20) MiB, server saw the close after \(ContinuousClock.now - start) "
                        + "(\(ended ?? "not seen"))")
                }
            }
        }
    }
}
