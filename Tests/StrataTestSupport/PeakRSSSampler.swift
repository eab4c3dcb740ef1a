import Foundation

/// Samples the process's resident set size (`VmRSS` in `/proc/self/status`) every
/// 10 ms on a thread of its own, to find the peak growth while some code runs. Linux
/// only: where `/proc` is missing, every growth is zero, so a test checks its bound with
/// ``ResidentMemory/expect(growth:below:_:sourceLocation:)``, which says so there.
///
/// `@unchecked Sendable`: `peak` and `isRunning` are only read and written while
/// holding `lock`; `baseline` is immutable.
package final class PeakRSSSampler: @unchecked Sendable {
    /// The resident set size when sampling started, in bytes.
    package let baseline: Int
    private let lock = NSLock()
    private var peak: Int
    private var isRunning = true

    /// Starts sampling.
    package init() {
        baseline = Self.residentBytes() ?? 0
        peak = baseline
        let thread = Thread { [self] in
            while sample() { Thread.sleep(forTimeInterval: 0.01) }
        }
        thread.start()
    }

    /// Stops sampling and returns the peak growth over ``baseline``, in bytes.
    package func stop() -> Int {
        _ = sample()
        lock.lock()
        defer { lock.unlock() }
        isRunning = false
        return peak - baseline
    }

    /// Runs `body` while sampling and returns its result with the peak growth in bytes.
    package static func measure<T>(_ body: () async throws -> T) async rethrows -> (T, growth: Int) {
        let sampler = PeakRSSSampler()
        do {
            let result = try await body()
            return (result, sampler.stop())
        } catch {
            _ = sampler.stop()
            throw error
        }
    }

    /// Takes one sample; `false` once sampling has stopped.
    private func sample() -> Bool {
        let current = Self.residentBytes()
        lock.lock()
        defer { lock.unlock() }
        if let current { peak = max(peak, current) }
        return isRunning
    }

    /// The current resident set size in bytes, or `nil` where `/proc` is missing.
    package static func residentBytes() -> Int? {
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/status") else { return nil }
        defer { try? handle.close() }
        let status = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }
}
