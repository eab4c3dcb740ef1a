import Logging

/// One call of a client, shared by the copies of its ``MiddlewareContext`` (its attempts,
/// its redirects): its ``CallState`` behind one ``Locked``. A struct over that lock, so a
/// call allocates it once; the I/O that runs the call reports events to the state and
/// does what it answers, outside the lock.
struct Call: Sendable {
    private let state: Locked<CallState>

    /// A new call; `logger` is the client's (`nil` for a context made outside a client),
    /// `attributes` the endpoint's.
    init(logger: Logger? = nil, requestID: UInt64 = 0, attributes: [String: String] = [:]) {
        state = Locked(CallState(baseLogger: logger, requestID: requestID, attributes: attributes))
    }

    /// Reports an event, or changes what the call gathered, under the lock.
    func update<Result>(_ body: (inout CallState) throws -> Result) rethrows -> Result {
        try state.withLock(body)
    }

    /// What the call's steps recorded so far.
    var records: CallValues { state.withLock { $0.records } }

    /// The call's logger (see ``CallState/callLogger()``).
    var logger: Logger { state.withLock { $0.callLogger() } }

    private static let requestCounter = Locked<UInt64>(0)

    /// A number unique within the process, for the `strata.request` logger metadata.
    static func nextRequestID() -> UInt64 {
        requestCounter.withLock { counter in
            counter &+= 1
            return counter
        }
    }
}
