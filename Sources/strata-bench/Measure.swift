import Foundation

/// One way of making one request of a workload, checked so the work cannot be skipped.
struct Variant: Sendable {
    var name: String
    var request: @Sendable () async throws -> Void
}

/// A workload measured with every variant.
struct Workload: Sendable {
    var name: String
    /// Tasks issuing requests at once; 1 for sequential.
    var concurrency: Int
    var variants: [Variant]
}

/// A check that failed inside a request: the server's answer was not the expected one.
struct BenchError: Error, CustomStringConvertible {
    var description: String
}

/// Runs `total` requests of `variant` spread over `concurrency` tasks; returns requests per second.
func measure(_ variant: Variant, total: Int, concurrency: Int) async throws -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for task in 0..<concurrency {
            // Spread `total` as evenly as possible.
            let count = total / concurrency + (task < total % concurrency ? 1 : 0)
            group.addTask {
                for _ in 0..<count { try await variant.request() }
            }
        }
        try await group.waitForAll()
    }
    let elapsed = start.duration(to: clock.now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    return Double(total) / max(seconds, 1e-9)
}

/// The median of `values`; 0 for none.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Warms up, then measures every variant `options.repetitions` times, rotating the order
/// each repetition so no variant always runs first; returns the median req/s per variant.
func run(_ workload: Workload, options: Options) async throws -> [Double] {
    for variant in workload.variants {
        _ = try await measure(variant, total: options.warmup, concurrency: workload.concurrency)
    }
    var samples = Array(repeating: [Double](), count: workload.variants.count)
    for repetition in 0..<options.repetitions {
        for offset in 0..<workload.variants.count {
            let index = (repetition + offset) % workload.variants.count
            let rate = try await measure(workload.variants[index], total: options.requests,
                                         concurrency: workload.concurrency)
            samples[index].append(rate)
        }
    }
    return samples.map(median)
}

/// One table row: the first variant is the baseline the others are divided by.
func formatRow(_ name: String, variants: [Variant], rates: [Double]) -> String {
    var row = name.padding(toLength: 24, withPad: " ", startingAt: 0)
    for (index, (variant, rate)) in zip(variants, rates).enumerated() {
        row += "  \(variant.name) \(pad(String(Int(rate.rounded())), 6)) req/s"
        if index > 0, let base = rates.first, base > 0 {
            row += String(format: " %5.2fx", rate / base)
        }
    }
    return row
}

private func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}
