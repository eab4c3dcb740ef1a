import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// This process's memory and CPU use, for the soak mode.
///
/// Resident memory comes from `/proc/self`, so it is Linux only (`nil` elsewhere); CPU
/// time comes from `getrusage`, which every supported platform has.
enum ProcessStats {
    /// The resident set size in bytes (`/proc/self/statm`), or `nil` where unavailable.
    static func residentBytes() -> Int? {
        #if os(Linux)
            // statm: size resident shared text lib data dt, in pages.
            guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
            let fields = statm.split(separator: " ")
            guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
            return nil
        #endif
    }

    /// The peak resident set size in bytes (`VmHWM` in `/proc/self/status`), or `nil`
    /// where unavailable.
    static func peakResidentBytes() -> Int? {
        #if os(Linux)
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
            for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
                // "VmHWM:     12345 kB"
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
                return kilobytes * 1024
            }
            return nil
        #else
            return nil
        #endif
    }

    /// User plus system CPU time this process has used so far.
    static func cpuTime() -> Duration {
        var usage = rusage()
        #if canImport(Glibc)
            let who = __rusage_who_t(RUSAGE_SELF.rawValue)  // Glibc imports RUSAGE_SELF as an enum case
        #else
            let who: Int32 = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return .zero }
        func duration(_ time: timeval) -> Duration {
            .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec))
        }
        return duration(usage.ru_utime) + duration(usage.ru_stime)
    }
}

/// `bytes` in MB of 2²⁰ bytes (as `top` counts), one decimal; "n/a" for `nil`.
func formatMB(_ bytes: Int?) -> String {
    guard let bytes else { return "n/a" }
    return String(format: "%.1f MB", Double(bytes) / 1_048_576)
}

/// A difference of `bytes`, signed, in the unit of ``formatMB(_:)``; "n/a" for `nil`.
func formatMBDelta(_ bytes: Int?) -> String {
    guard let bytes else { return "n/a" }
    return String(format: "%+.1f MB", Double(bytes) / 1_048_576)
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
