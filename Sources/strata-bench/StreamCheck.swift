import Foundation
import Strata

/// The streaming target: a 100 MB body read through `Networker.stream`, chunk by chunk,
/// while the resident memory is sampled; its growth over the start is the figure.
struct StreamReport: Codable, Sendable {
    /// The pair group whose Strata client streamed.
    var group: PairGroup
    /// The bytes read.
    var bytes: Int
    /// The most RSS grew above its value before the request, in MB of 2²⁰ bytes; `nil`
    /// where RSS is not available.
    var peakGrowthMB: Double?
    var seconds: Double

    /// The size of the streamed body.
    static let bodyBytes = 100 * 1024 * 1024

    /// Streams ``bodyBytes`` from the test server's `/declared` route through `networker`.
    static func measure(_ networker: Networker, baseURL: URL, group: PairGroup) async throws -> StreamReport {
        let url = baseURL.appendingPathComponent("declared/\(bodyBytes)/bench")
        let start = ContinuousClock.now
        let before = ProcessStats.residentBytes()
        var peak = before
        let (_, body) = try await networker.stream(Endpoint<Data>(RequestDescription(route: url)))
        var bytes = 0
        var chunks = 0
        for try await chunk in body {
            bytes += chunk.count
            chunks += 1
            if chunks % 16 == 0, let rss = ProcessStats.residentBytes() { peak = max(peak ?? rss, rss) }
        }
        guard bytes == bodyBytes else { throw BenchError(description: "streamed \(bytes) bytes of \(bodyBytes)") }
        let growth: Double? = if let before, let peak { Double(peak - before) / 1_048_576 } else { nil }
        return StreamReport(
            group: group, bytes: bytes, peakGrowthMB: growth,
            seconds: start.duration(to: .now).seconds)
    }
}
