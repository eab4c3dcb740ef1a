// A stand-in of Apple's Darwin module for scripts/check-darwin.sh: the C library (Glibc has
// the POSIX part) and the declarations Strata's Apple-only code uses beyond it, with the
// SDK's Swift signatures. Never linked, never run: every body traps.
@_exported import Glibc

public struct os_unfair_lock_s {
    public init() {}
}
public typealias os_unfair_lock = os_unfair_lock_s
public typealias os_unfair_lock_t = UnsafeMutablePointer<os_unfair_lock_s>

@discardableResult public func os_unfair_lock_lock(_ lock: os_unfair_lock_t) { fatalError() }
@discardableResult public func os_unfair_lock_unlock(_ lock: os_unfair_lock_t) { fatalError() }
@discardableResult public func os_unfair_lock_trylock(_ lock: os_unfair_lock_t) -> Bool { fatalError() }

// Darwin's socket types are `Int32` (Glibc's are an enum); these shadow Glibc's.
public let SOCK_STREAM: Int32 = 1
public let SOCK_DGRAM: Int32 = 2
// Darwin's `getrusage` selectors are `Int32` (Glibc's are an enum).
public let RUSAGE_SELF: Int32 = 0
