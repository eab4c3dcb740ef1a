// A stand-in of Apple's Network framework for scripts/check-darwin.sh: `canImport(Network)`
// is true on Apple platforms; Strata names only the path monitor (Reachability.swift).

import Dispatch

/// The path monitor's surface that Strata's `Reachability.systemNetworkPath()` uses.
public final class NWPathMonitor: @unchecked Sendable {
    public init() {}
    public var pathUpdateHandler: (@Sendable (_ newPath: NWPath) -> Void)?
    public var currentPath: NWPath { NWPath(status: .satisfied) }
    public func start(queue: DispatchQueue) {}
    public func cancel() {}
}

/// A network path and its status.
public struct NWPath: Sendable {
    public enum Status: Sendable, Equatable {
        case satisfied, unsatisfied, requiresConnection
    }

    public let status: Status
}
