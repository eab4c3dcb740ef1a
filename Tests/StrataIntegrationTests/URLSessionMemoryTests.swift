import Foundation
import HTTPTypes
import Strata
import StrataTestServer
import StrataTestSupport
import Testing

@testable import StrataURLSession

/// Large and endless bodies over the URLSession transport, with the client limits of a
/// careful app (32 MiB, 3 s): they fail on time, and memory stays bounded (growth of
/// `VmHWM` over `VmRSS`, see ``leastGrowth(_:)``; Linux only, see ``ProcessMemory``).
/// Serialized, so that no two of them share the process's memory at once.
///
/// The resident set's growth is taken when the call fails: after that, `FoundationNetworking`
/// may go on receiving (and the delegate dropping) bytes for a while before the
/// cancellation reaches libcurl, which is when the server sees the connection close.
/// Transports reading endless bodies get a buffer limit of 64 MiB, so that a reader the
/// loaded test machine leaves unscheduled for a while (loopback delivers hundreds of MB/s)
/// does not turn the failure under test into
/// ``URLSessionTransportError/responseBufferFull(limit:)``.
@Suite("URLSessionTransport memory and limits", .serialized, .runsAlone)
struct URLSessionMemoryTests {
    static let limit = 32 * 1024 * 1024
    /// The most the resident set may grow while a test runs: twice the body limit.
    static let allowedGrowth = 64 * 1024 * 1024

    /// A transport whose unread bytes may reach twice the body limit.
    static func transport() -> URLSessionTransport {
        URLSessionTransport(configuration: .ephemeral, responseBufferLimit: 2 * limit)
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

    /// A 2 GiB `Content-Length` (refused before reading) and an endless chunked body
    /// (refused right after 32 MiB) both fail with `bodyTooLarge`, well before the 3 s
    /// deadline, and the server sees the connection close.
    @Test(arguments: ["/declared/2147483648", "/endless"])
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func bodyOverTheLimitIsRefused(route: String) async throws {
        try await TestServer.withStreamingRoutes { server, probe in
            let growth = await Self.leastGrowth { attempt in
                let endpoint = Endpoint<Data>(
                    RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: "\(route)/over-\(attempt)")))
                let memory = ProcessMemory.Watch()
                let start = ContinuousClock.now
                let error = await #expect(throws: StrataError.self) {
                    try await Self.networker(Self.transport()).send(endpoint)
                }
                let grown = memory.growth
                #expect(ContinuousClock.now - start < .seconds(2))
                #expect(error?.kind == .bodyTooLarge, "\(String(describing: error))")
                #expect(error?.underlying as? MessageBodyError == .tooLarge(limit: Self.limit))
                #expect(await probe.nextEndedWriter(within: .seconds(10)) == "over-\(attempt)")
                return grown
            }
            ResidentMemory.expect(growth: growth, below: Self.allowedGrowth, "grew \(growth) bytes")
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func deadlineStopsAFastLargeBodyOnTime() async throws {
        try await TestServer.withStreamingRoutes { server, probe in
            let growth = try await Self.leastGrowth { attempt in
                let path = "/endless/deadline-\(attempt)"
                let endpoint = Endpoint<Data>(RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: path)))
                let memory = ProcessMemory.Watch()
                let start = ContinuousClock.now
                let (_, body) = try await Self.networker(Self.transport(), timeout: .seconds(1)).stream(endpoint)
                var received = 0
                let error = await #expect(throws: StrataError.self) {
                    for try await chunk in body { received += chunk.count }
                }
                let grown = memory.growth
                let elapsed = ContinuousClock.now - start
                #expect(error?.transportError?.kind == .timedOut, "\(String(describing: error))")
                #expect(error?.phase == .readingBody)
                #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(2), "\(elapsed)")
                #expect(received > 1 << 20, "the body streamed: \(received) bytes read")
                #expect(await probe.nextEndedWriter(within: .seconds(10)) == "deadline-\(attempt)")
                return grown
            }
            ResidentMemory.expect(growth: growth, below: Self.allowedGrowth, "grew \(growth) bytes")
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
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
            ResidentMemory.expect(growth: growth, below: Self.allowedGrowth, "grew \(growth) bytes")
        }
    }

    @Test func compressionBombStopsRightAfterTheLimit() async throws {
        // 600 KB of gzip that inflate to 96 MiB: counted in decoded bytes, refused past 32 MiB.
        // Last in the suite: libcurl may go on inflating for a moment after the call failed.
        let bomb = GzipBomb.make(decodedSize: 96 * 1024 * 1024)
        let head = RawReplyServer.http("HTTP/1.1 200 OK\nContent-Encoding: gzip\nContent-Length: \(bomb.count)\n\n")
        try await RawReplyServer.with(reply: head + bomb) { server in
            let growth = await Self.leastGrowth { _ in
                var request = RequestDescription(route: EchoRoute(baseURL: server.baseURL, path: "/"))
                request.headers[.acceptEncoding] = "gzip"
                let memory = ProcessMemory.Watch()
                let error = await #expect(throws: StrataError.self) {
                    try await Self.networker(Self.transport()).send(Endpoint<Data>(request))
                }
                let grown = memory.growth
                #expect(error?.kind == .bodyTooLarge, "\(String(describing: error))")
                return grown
            }
            ResidentMemory.expect(growth: growth, below: Self.allowedGrowth, "grew \(growth) bytes")
        }
    }
}

/// The process's resident memory, from `/proc/self/status`: Linux only. Elsewhere every
/// value is zero; the tests check their bounds with ``ResidentMemory``, which says there
/// that nothing was measured.
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

        /// ``growth`` in MiB for a report, or that it was not measured.
        var growthDescription: String {
            ResidentMemory.isMeasurable ? "\(growth >> 20) MiB" : "not measured (no /proc/self/status)"
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

/// A gzip member whose deflate stream, in fixed-Huffman codes, is one literal zero and
/// then back-references of 258 bytes at distance 1: about 160 decoded bytes per byte sent.
/// Its trailer is zeros (libcurl does not check it, and the tests stop reading first).
enum GzipBomb {
    /// The bytes of a gzip member that inflates to `decodedSize` zero bytes (rounded up to
    /// the next 258 after the first).
    static func make(decodedSize: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(lsbFirst: 1, count: 1)  // BFINAL
        bits.write(lsbFirst: 1, count: 2)  // BTYPE 01: fixed Huffman codes
        bits.write(code: 0x30, count: 8)  // literal 0
        for _ in 0..<(decodedSize - 1 + 257) / 258 {
            bits.write(code: 0xC5, count: 8)  // length 258 (symbol 285)
            bits.write(code: 0, count: 5)  // distance 1 (code 0)
        }
        bits.write(code: 0, count: 7)  // end of block (symbol 256)
        let header: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]
        return header + bits.bytes + [UInt8](repeating: 0, count: 8)
    }

    /// Packs bits into bytes from the least significant bit up, as deflate does.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var used = 8

        /// Writes the low `count` bits of `value`, least significant first (header fields).
        mutating func write(lsbFirst value: Int, count: Int) {
            for index in 0..<count { append(bit: (value >> index) & 1) }
        }

        /// Writes a Huffman code of `count` bits, most significant first.
        mutating func write(code: Int, count: Int) {
            for index in stride(from: count - 1, through: 0, by: -1) { append(bit: (code >> index) & 1) }
        }

        private mutating func append(bit: Int) {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            bytes[bytes.count - 1] |= UInt8(bit) << used
            used += 1
        }
    }
}
