import Foundation

/// One way of making one request of a workload, checked so the work cannot be skipped.
struct Variant: Sendable {
    var name: String
    var request: @Sendable () async throws -> Void
}

/// What a workload sends, for the report.
enum WorkloadKind: String, Sendable, Codable {
    /// `GET` of the ~200 B user, decoded into the model.
    case user = "GET user"
    /// `GET` of the 1 MB photo list, mapped through both model layers.
    case photos = "GET 1 MB photos"
    /// A `.formURL` POST, the echo decoded into the model.
    case form = "POST form"
    /// A JSON `POST` of the user, answered `201 Created` with the user (the `openapi`
    /// group's `registerUser`).
    case register = "POST JSON user"
    /// A gRPC client stream of 100 photo uploads, answered by one summary (the `grpc`
    /// group's `UploadPhotos`): a request is one call, 100 messages.
    case upload = "upload 100 msgs"
    /// A gRPC bidirectional call of 100 chat lines, each answered by two (the `grpc`
    /// group's `Chat`): a request is one call, 100 messages out, 200 in.
    case chat = "chat 100→200"
}

/// A workload measured with a pair of variants: the baseline first, then the subject.
struct Workload: Sendable {
    var kind: WorkloadKind
    /// Tasks issuing requests at once; 1 for sequential.
    var concurrency: Int
    /// Measured requests per variant and round.
    var requests: Int
    var baseline: Variant
    var subject: Variant
}

/// A check that failed inside a request: the answer was not the expected one.
struct BenchError: Error, CustomStringConvertible {
    var description: String
}

/// One round of one variant.
struct RoundSample: Sendable {
    /// Requests per second over the round.
    var rate: Double
    /// Client CPU time (user + system, the whole process) per request, in µs.
    var cpuMicros: Double
    /// Each request's duration, in µs.
    var latencies: [Double]
}

/// Everything measured of one variant over all rounds.
struct VariantSamples: Sendable {
    var rounds: [RoundSample] = []
}

/// Runs `total` requests of `variant` spread over `concurrency` tasks and times each.
func measureRound(_ variant: Variant, total: Int, concurrency: Int) async throws -> RoundSample {
    let clock = ContinuousClock()
    let cpuBefore = ProcessStats.cpuTime()
    let start = clock.now
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
        for task in 0..<concurrency {
            // Spread `total` as evenly as possible.
            let count = total / concurrency + (task < total % concurrency ? 1 : 0)
            guard count > 0 else { continue }
            group.addTask {
                var durations: [Double] = []
                durations.reserveCapacity(count)
                for _ in 0..<count {
                    let requestStart = clock.now
                    try await variant.request()
                    durations.append(requestStart.duration(to: clock.now).seconds * 1e6)
                }
                return durations
            }
        }
        var all: [Double] = []
        all.reserveCapacity(total)
        for try await durations in group { all += durations }
        return all
    }
    let seconds = start.duration(to: clock.now).seconds
    let cpu = (ProcessStats.cpuTime() - cpuBefore).seconds
    return RoundSample(
        rate: Double(total) / max(seconds, 1e-9),
        cpuMicros: cpu * 1e6 / Double(max(total, 1)), latencies: latencies)
}

/// Warms both variants up, then runs `rounds` rounds; each round runs both variants
/// once, the baseline first in even rounds and the subject first in odd ones.
func measure(_ workload: Workload, rounds: Int) async throws -> (baseline: VariantSamples, subject: VariantSamples) {
    let variants = [workload.baseline, workload.subject]
    let warmup = max(workload.requests / 10, workload.concurrency)
    for variant in variants {
        _ = try await measureRound(variant, total: warmup, concurrency: workload.concurrency)
    }
    var samples = [VariantSamples(), VariantSamples()]
    for round in 0..<rounds {
        for offset in 0..<variants.count {
            let index = (round + offset) % variants.count
            samples[index].rounds.append(
                try await measureRound(variants[index], total: workload.requests, concurrency: workload.concurrency))
        }
    }
    return (samples[0], samples[1])
}

/// The median of `values`; 0 for none.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The `fraction` percentile of `values` (nearest rank); 0 for none.
func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}
