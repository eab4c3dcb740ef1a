import Foundation

/// A value guarded by a lock, shared between the tasks that use one ``MockTransport``.
///
/// `Mutex` from `Synchronization` would do, but it needs macOS 15 and the package
/// supports macOS 13, so this is an `NSLock` box.
///
/// `@unchecked Sendable`: `value` is only read or written inside `withLock`, while
/// `lock` is held.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
