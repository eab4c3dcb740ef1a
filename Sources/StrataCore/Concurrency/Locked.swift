#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value guarded by a lock: the one lock helper of Strata's modules (the transports,
/// the mock and the client share it through `package` access).
///
/// `Mutex` from `Synchronization` would do, but it needs macOS 15 and the package
/// supports macOS 13. So the value and the lock (`os_unfair_lock` on Apple platforms,
/// a `pthread_mutex_t` elsewhere) live side by side in one heap object: one allocation
/// per `Locked`, where a class holding an `NSLock` took three (the box, the lock object
/// and its mutex), and a request creates several (its timer, its outcome, its records).
///
/// A struct over a shared reference: copies guard the same value, as the class did.
///
/// `@unchecked Sendable`: the value is only read or written inside `withLock`, while the
/// lock is held; the storage reference is immutable and the lock lives in that storage,
/// so every copy takes the same lock. Like `Synchronization.Mutex`, it is `Sendable`
/// whatever `Value` is: it exists to guard state that is not `Sendable` on its own
/// (`MemoryCacheStore`'s entries, the `DeadlineScheduler`'s heap, a body's iterator); as
/// with `Mutex`, what a caller takes out of `withLock` must be safe to share.
package struct Locked<Value>: @unchecked Sendable {
    private let storage: LockedStorage<Value>

    /// Guards `value`.
    package init(_ value: Value) {
        storage = LockedStorage.make(value)
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, lock in
            LockPrimitive.lock(lock)
            defer { LockPrimitive.unlock(lock) }
            return try body(&value.pointee)
        }
    }
}

/// The heap object of a ``Locked``: the value as the header, the lock as its one element.
private final class LockedStorage<Value>: ManagedBuffer<Value, LockPrimitive.Lock> {
    static func make(_ value: Value) -> LockedStorage<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        let storage = unsafeDowncast(buffer, to: LockedStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { LockPrimitive.initialize($0) }
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements { lock in
            LockPrimitive.destroy(lock)
            lock.deinitialize(count: 1)
        }
    }
}

/// The platform's lock, used in place (never moved: it lives in a heap object).
private enum LockPrimitive {
    #if canImport(Darwin)
        typealias Lock = os_unfair_lock

        static func initialize(_ lock: UnsafeMutablePointer<Lock>) { lock.initialize(to: os_unfair_lock()) }
        static func destroy(_ lock: UnsafeMutablePointer<Lock>) {}
        static func lock(_ lock: UnsafeMutablePointer<Lock>) { os_unfair_lock_lock(lock) }
        static func unlock(_ lock: UnsafeMutablePointer<Lock>) { os_unfair_lock_unlock(lock) }
    #else
        typealias Lock = pthread_mutex_t

        static func initialize(_ lock: UnsafeMutablePointer<Lock>) {
            lock.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(lock, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
        }

        static func destroy(_ lock: UnsafeMutablePointer<Lock>) { pthread_mutex_destroy(lock) }

        static func lock(_ lock: UnsafeMutablePointer<Lock>) {
            let status = pthread_mutex_lock(lock)
            precondition(status == 0, "pthread_mutex_lock failed: \(status)")
        }

        static func unlock(_ lock: UnsafeMutablePointer<Lock>) {
            let status = pthread_mutex_unlock(lock)
            precondition(status == 0, "pthread_mutex_unlock failed: \(status)")
        }
    #endif
}
