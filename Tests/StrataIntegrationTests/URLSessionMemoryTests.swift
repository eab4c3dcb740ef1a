import Foundation
import HTTPTypes
import Strata
@testable import StrataURLSession
import StrataTestServer
import Testing

/// Large and endless bodies over the URLSession transport, with the client limits of a
/// careful app (32 MiB, 3 s): they fail on time, and memory stays bounded. Serialized,
/// so that no two of them share the process's memory at once.
@Suite("URLSessionTransport memory and limits", .serialized)
struct URLSessionMemoryTests {
    static let limit = 32 * 1024 * 1024
    /// The most the resident set may grow while a test runs: twice the body limit.
    static let allowedGrowth = 64 * 1024 * 1024

    static func networker(_ transport: URLSessionTransport, timeout: Duration = .seconds(3)) -> Networker {
        var configuration = Networker.Configuration()
        configuration.maxResponseBodySize = limit
        configuration.timeout = timeout
        return Networker(transport: transport, configuration: configuration)
    }

    @Test func declaredHugeLengthIsRefusedBeforeReading() async throws {
        try await TestServer.withStreamingRoutes { server, probe in
            let transport = URLSessionTransport(configuration: .ephemeral)
            let endpoint = Endpoint<Data>(RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: "/declared/2147483648/huge")))
            let memory = ProcessMemory.Watch()
            let start = ContinuousClock.now
            let error = await #expect(throws: StrataError.self) { try await Self.networker(transport).send(endpoint) }
            #expect(ContinuousClock.now - start < .seconds(1))
            #expect(error?.kind == .bodyTooLarge)
            #expect(error?.underlying as? MessageBodyError == .tooLarge(limit: Self.limit))
            #expect(memory.growth < Self.allowedGrowth, "grew \(memory.growth) bytes")
            #expect(await probe.nextEndedWriter(within: .seconds(10)) == "huge")
        }
    }

    @Test func endlessFastBodyFailsRightAfterTheLimit() async throws {
        try await TestServer.withStreamingRoutes { server, probe in
            let transport = URLSessionTransport(configuration: .ephemeral)
            let endpoint = Endpoint<Data>(RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: "/endless/flood")))
            let memory = ProcessMemory.Watch()
            let start = ContinuousClock.now
            let error = await #expect(throws: StrataError.self) { try await Self.networker(transport).send(endpoint) }
            #expect(ContinuousClock.now - start < .seconds(2))
            #expect(error?.kind == .bodyTooLarge)
            #expect(memory.growth < Self.allowedGrowth, "grew \(memory.growth) bytes")
            #expect(await probe.nextEndedWriter(within: .seconds(10)) == "flood")
        }
    }

    @Test func deadlineStopsAFastLargeBodyOnTime() async throws {
        try await TestServer.withStreamingRoutes { server, probe in
            let transport = URLSessionTransport(configuration: .ephemeral)
            let endpoint = Endpoint<Data>(RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: "/endless/deadline")))
            let memory = ProcessMemory.Watch()
            let start = ContinuousClock.now
            let (_, body) = try await Self.networker(transport, timeout: .seconds(1)).stream(endpoint)
            var received = 0
            let error = await #expect(throws: TransportError.self) {
                for try await chunk in body { received += chunk.count }
            }
            let elapsed = ContinuousClock.now - start
            #expect(error?.kind == .timedOut)
            #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(2), "\(elapsed)")
            #expect(received > 1 << 20, "the body streamed: \(received) bytes read")
            #expect(memory.growth < Self.allowedGrowth, "grew \(memory.growth) bytes")
            #expect(await probe.nextEndedWriter(within: .seconds(10)) == "deadline")
        }
    }

    @Test func slowReaderStopsTheRequestAtTheBufferLimit() async throws {
        try await TestServer.withStreamingRoutes { server, probe in
            let transport = URLSessionTransport(configuration: .ephemeral, responseBufferLimit: 1024 * 1024)
            let request = try URLSessionTransportTests.request(.get, server, "/endless/slow")
            let memory = ProcessMemory.Watch()
            let body = try #require(try await transport.send(request, body: nil, deadline: .now + .seconds(10)).1)
            var iterator = body.makeAsyncIterator()
            #expect(try await iterator.next()?.isEmpty == false)
            // A reader busy elsewhere while the server sends far more than 1 MiB.
            try await Task.sleep(for: .milliseconds(300))
            let error = await #expect(throws: TransportError.self) {
                while try await iterator.next() != nil {}
            }
            #expect(error?.kind == .other)
            #expect(error?.underlying as? URLSessionTransportError == .responseBufferFull(limit: 1024 * 1024))
            #expect(memory.growth < Self.allowedGrowth, "grew \(memory.growth) bytes")
            #expect(await probe.nextEndedWriter(within: .seconds(10)) == "slow")
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
