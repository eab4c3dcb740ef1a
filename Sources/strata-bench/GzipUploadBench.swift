import Foundation
import Hummingbird
import Strata
import StrataAsyncHTTPClient
import StrataCompression
import StrataTestServer
import StrataURLSession

/// The upload modes' settings (`--gzip-upload`, `--resumable-upload`).
struct UploadBenchOptions: Sendable {
    /// The body's size in MiB (`--upload-mb`).
    var megabytes = 64
    /// Measured rounds (`--rounds`); medians are printed.
    var rounds = 3
}

/// What `RequestCompressionMiddleware` costs and saves: gzip alone (CPU per MB at three
/// levels, on text that compresses as logs do and on random bytes, which do not), then whole
/// uploads over loopback, plain and gzipped, over each transport, to an in-process server that
/// counts the bytes it receives (it does not inflate, so the process CPU is the client's and
/// the server's reading).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum GzipUploadBench {
    static func run(_ options: UploadBenchOptions) async -> Int32 {
        let size = options.megabytes << 20
        let megabytes = Double(size) / 1_048_576
        let bodies = [("text", logLikeText(count: size)), ("random", randomBytes(count: size))]
        print("gzip-upload: \(options.megabytes) MiB bodies, \(options.rounds) rounds, medians")
        print("gzip alone (MessageBody.gzipCompressed, one core):")
        for (name, data) in bodies {
            for level in [GzipLevel.fastest, .default, .best] {
                var cpu: [Double] = []
                var compressedSize = 0
                for _ in 0..<options.rounds {
                    let start = ProcessStats.cpuTime()
                    do {
                        compressedSize = try await MessageBody(data).gzipCompressed(level: level).collect(
                            upTo: size * 2
                        )
                        .count
                    } catch {
                        printError("gzip failed: \(error)")
                        return 1
                    }
                    cpu.append(milliseconds(ProcessStats.cpuTime() - start) / megabytes)
                }
                let ratio = Double(compressedSize) / Double(size)
                print(
                    "  \(name) level \(level.value): \(format(median(cpu))) ms CPU per MiB, "
                        + "\(compressedSize) bytes (\(format(ratio * 100)) %)")
            }
        }
        print("uploads over loopback (wall, process CPU per MiB, body bytes on the wire):")
        do {
            try await TestServer.with(configure: routes) { server in
                for transportName in ["AsyncHTTPClient", "URLSession"] {
                    let transport: any Transport =
                        transportName == "URLSession" ? URLSessionTransport() : AsyncHTTPClientTransport()
                    for (name, data) in bodies {
                        for gzip in [false, true] {
                            let middleware: [any Middleware] = gzip ? [RequestCompressionMiddleware()] : []
                            let networker = Networker(
                                transport: transport, middleware: middleware,
                                configuration: StrataBench.networkerConfiguration)
                            let endpoint = Endpoint<String>(
                                RequestDescription(
                                    route: server.baseURL.absoluteString + "/gzip-bench/sink", method: .post,
                                    body: .data(data, contentType: "application/octet-stream")))
                            var wall: [Double] = []
                            var cpu: [Double] = []
                            var wire = ""
                            for _ in 0..<options.rounds {
                                let clock = ContinuousClock.now
                                let start = ProcessStats.cpuTime()
                                wire = try await networker.send(endpoint)
                                cpu.append(milliseconds(ProcessStats.cpuTime() - start) / megabytes)
                                wall.append(milliseconds(ContinuousClock.now - clock))
                            }
                            print(
                                "  \(transportName) \(name) \(gzip ? "gzip" : "plain"): \(format(median(wall))) ms, "
                                    + "\(format(median(cpu))) ms CPU per MiB, \(wire) bytes")
                        }
                    }
                    if let client = transport as? AsyncHTTPClientTransport { try await client.shutdown() }
                }
            }
        } catch {
            printError("gzip-upload failed: \(error)")
            return 1
        }
        return 0
    }

    /// `POST /gzip-bench/sink` reads the body and answers how many bytes it held.
    @Sendable static func routes(_ router: Router<BasicRequestContext>) {
        router.post("gzip-bench/sink") { request, _ -> String in
            var count = 0
            for try await chunk in request.body { count += chunk.readableBytes }
            return String(count)
        }
    }

    /// Words from a small vocabulary, as logs and JSON exports repeat themselves.
    static func logLikeText(count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        let words = [
            "strata", "upload", "gzip", "event", "user_id", "42", "ok", "latency_ms", "\n", "{\"id\":", "}",
            "2026-11-28T20:00:00Z",
        ]
        var text = [UInt8]()
        text.reserveCapacity(count)
        while text.count < count {
            text.append(contentsOf: words[Int.random(in: 0..<words.count, using: &generator)].utf8)
            text.append(contentsOf: String(Int.random(in: 0..<1000, using: &generator)).utf8)
            text.append(0x20)
        }
        return Data(text.prefix(count))
    }

    /// Bytes that do not compress.
    static func randomBytes(count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: count)
        for index in stride(from: 0, to: count, by: 8) {
            var word = generator.next()
            for offset in index..<min(index + 8, count) {
                bytes[offset] = UInt8(truncatingIfNeeded: word)
                word >>= 8
            }
        }
        return Data(bytes)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
