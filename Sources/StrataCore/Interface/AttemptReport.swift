/// What a transport tells the steps that observe an attempt (logging, tracing) about the
/// attempt it carried, beyond the response head: today, the HTTP version it spoke.
///
/// A step that observes attempts (see `MiddlewareContext.observeAttempt(_:body:listeners:next:)`, a feature)
/// binds a report to ``current`` around the transport; a transport that knows the version
/// writes it there before it returns the head:
///
/// ```swift
/// AttemptReport.current?.protocolVersion = "1.1"
/// ```
///
/// With no observer, ``current`` is `nil` and the write costs a task-local lookup.
public final class AttemptReport: Sendable {
    /// The report of the attempt the current task carries, if a step observes it.
    @TaskLocal public static var current: AttemptReport?

    private let version = Locked<String?>(nil)
    /// The report of an observer further out, which is told too.
    private let outer: AttemptReport?

    /// Creates an empty report, within `outer` (an observing step further out, told what
    /// this one is told).
    public init(within outer: AttemptReport? = nil) {
        self.outer = outer
    }

    /// The HTTP version of the attempt as the OpenTelemetry conventions write it
    /// (`1.0`, `1.1`, `2`, `3`); `nil` when the transport does not know it. Setting it sets
    /// the outer reports' too.
    public var protocolVersion: String? {
        get { version.withLock { $0 } }
        set {
            version.withLock { $0 = newValue }
            outer?.protocolVersion = newValue
        }
    }
}

/// The former name of ``AttemptReport``.
@available(*, deprecated, renamed: "AttemptReport")
public typealias ExchangeReport = AttemptReport
