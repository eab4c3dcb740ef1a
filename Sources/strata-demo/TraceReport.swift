import Foundation
import InMemoryTracing
import Strata
import StrataObservability
import Tracing

/// `--trace`: the tour's calls traced by a ``TelemetryMiddleware`` into an in-memory
/// tracer, printed at the end as span trees and a histogram of the attempts' durations
/// over the OpenTelemetry advisory buckets.
struct TraceReport: Sendable {
    let tracer = InMemoryTracer()

    /// The step to add closest to the transport: a span per attempt.
    var middleware: any Middleware { TelemetryMiddleware(signals: .tracing, tracer: tracer) }

    /// The span trees, then the histogram.
    func summary() -> String {
        let spans = tracer.finishedSpans
        var lines = ["", "Trace · \(spans.count) spans, one per attempt (TelemetryMiddleware)"]
        let byParent = Dictionary(grouping: spans) { $0.parentSpanID ?? "" }
        func add(_ span: FinishedInMemorySpan, depth: Int) {
            lines.append(String(repeating: "  ", count: depth + 2) + Self.describe(span))
            for child in byParent[span.spanID] ?? [] { add(child, depth: depth + 1) }
        }
        let ids = Set(spans.map(\.spanID))
        for root in spans where root.parentSpanID.map({ !ids.contains($0) }) ?? true { add(root, depth: 0) }
        lines.append("")
        lines.append("http.client.request.duration (attempts by bucket)")
        let milliseconds = spans.map(Self.milliseconds).sorted()
        var previous = 0.0
        for bound in TelemetryMiddleware.durationBuckets.map({ $0 * 1000 }) + [.infinity] {
            let count = milliseconds.filter { $0 > previous && $0 <= bound }.count
            if count > 0 {
                let label = bound.isInfinite ? "> \(Self.format(previous)) ms" : "≤ \(Self.format(bound)) ms"
                lines.append("    \(label.padding(toLength: 12, withPad: " ", startingAt: 0)) \(count)")
            }
            previous = bound
        }
        if !milliseconds.isEmpty {
            let median = milliseconds[milliseconds.count / 2]
            lines.append("    median \(Self.format(median)) ms, slowest \(Self.format(milliseconds.last ?? 0)) ms")
        }
        return lines.joined(separator: "\n")
    }

    /// `GET /users/1 → 200 · 3.2 ms · resend 1 · strata.retry.wait`.
    static func describe(_ span: FinishedInMemorySpan) -> String {
        func text(_ name: String) -> String? {
            switch span.attributes[name]?.toSpanAttribute() {
            case .string(let value): value
            case .int64(let value): String(value)
            default: nil
            }
        }
        let target = text("url.full").flatMap { URL(string: $0) }.map { $0.path + ($0.query.map { "?" + $0 } ?? "") }
        var parts = [
            "\(span.operationName) \(target ?? "") → \(text("http.response.status_code") ?? text("error.type") ?? "—")"
        ]
        parts.append("\(format(milliseconds(span))) ms")
        if let resend = text("http.request.resend_count") { parts.append("resend \(resend)") }
        parts += span.events.map(\.name)
        return parts.joined(separator: " · ")
    }

    static func milliseconds(_ span: FinishedInMemorySpan) -> Double {
        Double(span.endInstant.nanosecondsSinceEpoch - span.startInstant.nanosecondsSinceEpoch) / 1_000_000
    }

    static func format(_ value: Double) -> String {
        String(format: value < 10 ? "%.1f" : "%.0f", value)
    }
}
