import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// This test binary started again as a child process that runs one suite: for work whose
/// effects (its resident set, a crash) must stay out of the test process.
public enum ChildProcess {
    /// This test binary, where there is `/proc/self/exe` (Linux); `nil` elsewhere.
    public static var testBinary: URL? {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return FileManager.default.isExecutableFile(atPath: executable.path) ? executable : nil
    }

    /// A process that runs only the tests matching `filter`, with `environment` added to
    /// this one's and its output sent to `output` (discarded when `nil`).
    public static func make(executable: URL, filter: String, environment: [String: String], output: FileHandle? = nil)
        -> Process
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = output ?? FileHandle.nullDevice
        return process
    }

    /// Starts `process` and waits until it exits; kills it after `timeout`.
    /// - Returns: whether it was terminated for running past `timeout`.
    ///
    /// The wait ends at the latest a second after the kill even when Foundation never calls
    /// the termination handler (seen once on Linux: a child that had exited, and a test
    /// waiting for it until the watchdog of the whole run).
    @discardableResult
    public static func run(_ process: Process, timeout: Duration) async throws -> Bool {
        let timedOut = TimeoutFlag()
        let waiter = Waiter()
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            timedOut.set()
            // SIGKILL, not `terminate()`'s SIGTERM: a child inherits the blocked signals of the
            // thread that starts it, and test threads block SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            try await Task.sleep(for: .seconds(1))
            waiter.resume()
        }
        defer { watchdog.cancel() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            waiter.set(continuation)
            process.terminationHandler = { _ in waiter.resume() }
            do {
                try process.run()
            } catch {
                waiter.resume(throwing: error)
            }
        }
        return timedOut.isSet
    }

    /// The continuation of ``run(_:timeout:)``, resumed once by whichever comes first: the
    /// termination handler, a failure to start, or the watchdog. `@unchecked Sendable`:
    /// `continuation` is read and written only while holding `lock`.
    private final class Waiter: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Void, any Error>?

        func set(_ continuation: CheckedContinuation<Void, any Error>) {
            lock.withLock { self.continuation = continuation }
        }

        func resume(throwing error: (any Error)? = nil) {
            let taken = lock.withLock { () -> CheckedContinuation<Void, any Error>? in
                defer { continuation = nil }
                return continuation
            }
            if let error { taken?.resume(throwing: error) } else { taken?.resume() }
        }
    }

    /// Set once by the watchdog. `@unchecked Sendable`: `value` is read and written only
    /// while holding `lock`.
    private final class TimeoutFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false

        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }
}
