import Foundation

/// A value guarded by a lock: the one lock helper of Strata's modules (the transports,
/// the mock and the client share it through `package` access).
///
/// `Mutex` from `Synchronization` would do, but it needs macOS 15 and the package
/// supports macOS 13, so this is an `NSLock` box.
///
/// `@unchecked Sendable`: `value` is only read or written inside `withLock`, while
/// `lock` is held.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates the box holding `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
