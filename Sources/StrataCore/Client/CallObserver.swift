/// Told about each call a ``Networker`` finishes — what its steps recorded and how it
/// ended — for metrics, audits or tests; set in ``Networker/Configuration/callObservers``
/// (a `GRPCNetworker` tells its own, for its gRPC calls).
///
/// ```swift
/// struct FailurePrinter: CallObserver {
///     func callEnded(_ call: FinishedCall) {
///         if let error = call.error { print("call failed: \(error.kind)") }
///     }
/// }
/// var configuration = Networker.Configuration()
/// configuration.callObservers = [FailurePrinter()]
/// ```
///
/// It runs in the caller's task as the call returns: keep it quick, and never wait in it.
public protocol CallObserver: Sendable {
    /// `call` has ended (for a streamed call: once its head arrived or it failed).
    func callEnded(_ call: FinishedCall)
}

/// A call as it ended: what its steps recorded (``MiddlewareContext/record(_:for:)``: the
/// retry summary, the cache outcome, the circuit transitions…) and its error, if any.
public struct FinishedCall: Sendable {
    /// What the call's steps recorded.
    public let records: CallValues
    /// The call's error; `nil` for a success.
    public let error: StrataError?

    /// A call that ended with `error` (`nil`: it succeeded), its steps having recorded
    /// `records`.
    init(records: CallValues, error: StrataError?) {
        self.records = records
        self.error = error
    }
}

extension [any CallObserver] {
    /// Ends a call for these observers, the one way every client does: the call's error
    /// (`nil` for a success) carries what its steps recorded, and each observer is told.
    /// - Returns: the error, carrying `records`.
    @discardableResult
    package func tell(callEndedWith error: StrataError?, records: CallValues) -> StrataError? {
        let error = error?.withRecords(records)
        let call = FinishedCall(records: records, error: error)
        for observer in self { observer.callEnded(call) }
        return error
    }
}
