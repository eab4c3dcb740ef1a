import Foundation
import HTTPTypes
import Strata
@testable import StrataURLSession
import StrataTestServer
import Testing

/// Large and endless bodies over the URLSession transport, with the client limits of a
/// careful app (32 MiB, 3 s): they fail on time, and memory stays bounded (growth of
/// `VmHWM` over `VmRSS`, see ``leastGrowth(_:)``). Serialized, so that no two of them
/// share the process's memory at once.
///
/// The resident set's growth is taken when the call fails: after that, `FoundationNetworking`
/// may go on receiving (and the delegate dropping) bytes for a while before the
/// cancellation reaches libcurl, which is when the server sees the connection close.
/// Transports reading endless bodies get a buffer limit of 32 MiB, so that a reader the
/// loaded test machine leaves unscheduled for a few tens of milliseconds does not turn the
/// failure under test into ``URLSessionTransportError/responseBufferFull(limit:)``.
@Suite("URLSessionTransport memory and limits", .serialized)
struct URLSessionMemoryTests {
    static let limit = 32 * 1024 * 1024
    /// The most the resident set may grow while a test runs: twice the body limit.
    static let allowedGrowth = 64 * 1024 * 1024

    /// A transport whose unread bytes may reach the body limit.
    static func transport() -> URLSessionTransport {
        URLSessionTransport(configuration: .ephemeral, responseBufferLimit: limit)
    }

    static func networker(_ transport: URLSessionTransport, timeout: Duration = .seconds(3)) -> Networker {
        var configuration = Networker.Configuration()
        configuration.maxResponseBodySize = limit
        configuration.timeout = timeout
        return Networker(transport: transport, configuration: configuration)
    }

    /// The least growth of the resident set that `scenario` reports over up to three
    /// attempts (it stops at the first within ``allowedGrowth``).
    ///
    /// The other suites run meanwhile in the same process and allocate too; they can only
    /// add to a measurement, so the least of a few is the closest to the scenario's own.
    /// A transport that buffered the body would exceed the bound on every attempt.
    static func leastGrowth(_ scenario: (_ attempt: Int) async throws -> Int) async rethrows -> Int {
        var least = Int.max
        for attempt in 1...3 where least >= allowedGrowth {
            least = min(least, try await scenario(attempt))
        }
        return least
    }

    @Test func declaredHugeLengthIsRefusedBeforeReading() async throws {
        try await TestServer.withStreamingRoutes { server, probe in
            let growth = await Self.leastGrowth { attempt in
                let path = "/declared/2147483648/huge-\(attempt)"
                let endpoint = Endpoint<Data>(RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: path)))
                let memory = ProcessMemory.Watch()
                let start = ContinuousClock.now
                let error = await #expect(throws: StrataError.self) { try await Self.networker(Self.transport()).send(endpoint) }
                let grown = memory.growth
                #expect(ContinuousClock.now - start < .seconds(2))  // well before the 3 s deadline
                #expect(error?.kind == .bodyTooLarge)
                #expect(error?.underlying as? MessageBodyError == .tooLarge(limit: Self.limit))
                #expect(await probe.nextEndedWriter(within: .seconds(10)) == "huge-\(attempt)")
                return grown
            }
            #expect(growth < Self.allowedGrowth, "grew \(growth) bytes")
        }
    }

    @Test func endlessFastBodyFailsRightAfterTheLimit() async throws {
        try await TestServer.withStreamingRoutes { server, probe in
            let growth = await Self.leastGrowth { attempt in
                let path = "/endless/flood-\(attempt)"
                let endpoint = Endpoint<Data>(RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: path)))
                let memory = ProcessMemory.Watch()
                let start = ContinuousClock.now
                let error = await #expect(throws: StrataError.self) { try await Self.networker(Self.transport()).send(endpoint) }
                let grown = memory.growth
                #expect(ContinuousClock.now - start < .seconds(2))
                #expect(error?.kind == .bodyTooLarge)
                #expect(await probe.nextEndedWriter(within: .seconds(10)) == "flood-\(attempt)")
                return grown
            }
            #expect(growth < Self.allowedGrowth, "grew \(growth) bytes")
        }
    }

    @Test func deadlineStopsAFastLargeBodyOnTime() async throws {
        try await TestServer.withStreamingRoutes { server, probe in
            let growth = try await Self.leastGrowth { attempt in
                let path = "/endless/deadline-\(attempt)"
                let endpoint = Endpoint<Data>(RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: path)))
                let memory = ProcessMemory.Watch()
                let start = ContinuousClock.now
                let (_, body) = try await Self.networker(Self.transport(), timeout: .seconds(1)).stream(endpoint)
                var received = 0
                let error = await #expect(throws: TransportError.self) {
                    for try await chunk in body { received += chunk.count }
                }
                let grown = memory.growth
                let elapsed = ContinuousClock.now - start
                #expect(error?.kind == .timedOut)
                #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(2), "\(elapsed)")
                #expect(received > 1 << 20, "the body streamed: \(received) bytes read")
                #expect(await probe.nextEndedWriter(within: .seconds(10)) == "deadline-\(attempt)")
                return grown
            }
            #expect(growth < Self.allowedGrowth, "grew \(growth) bytes")
        }
    }

    @Test func slowReaderStopsTheRequestAtTheBufferLimit() async throws {
        try await TestServer.withStreamingRoutes { server, probe in
            let growth = try await Self.leastGrowth { attempt in
                let transport = URLSessionTransport(configuration: .ephemeral, responseBufferLimit: 1024 * 1024)
                let request = try URLSessionTransportTests.request(.get, server, "/endless/slow-\(attempt)")
                let memory = ProcessMemory.Watch()
                let body = try #require(try await transport.send(request, body: nil, deadline: .now + .seconds(10)).1)
                // A reader busy elsewhere while the server sends far more than 1 MiB.
                try await Task.sleep(for: .milliseconds(300))
                let error = await #expect(throws: TransportError.self) {
                    for try await _ in body {}
                }
                let grown = memory.growth
                #expect(error?.kind == .other)
                #expect(error?.underlying as? URLSessionTransportError == .responseBufferFull(limit: 1024 * 1024))
                #expect(await probe.nextEndedWriter(within: .seconds(10)) == "slow-\(attempt)")
                return grown
            }
            #expect(growth < Self.allowedGrowth, "grew \(growth) bytes")
        }
    }
}

/// The process's resident memory, from `/proc/self/status` (Linux; zero elsewhere).
enum ProcessMemory {
    /// Measures how far the resident set's peak rises above its size at creation.
    struct Watch {
        private let baseline: Int

        /// Resets the peak (`VmHWM`) to the current size and records that size.
        init() {
            ProcessMemory.resetPeak()
            baseline = ProcessMemory.value(of: "VmRSS")
        }

        /// The peak resident size since creation, minus the size at creation, in bytes.
        var growth: Int {
            ProcessMemory.value(of: "VmHWM") - baseline
        }
    }

    /// A `kB` field of `/proc/self/status`, in bytes; zero when unavailable.
    static func value(of field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let number = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return number * 1024
        }
        return 0
    }

    /// Resets `VmHWM` to the current resident size (`clear_refs` mode 5).
    static func resetPeak() {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    }
}
