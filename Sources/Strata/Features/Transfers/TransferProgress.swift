/// How far a transfer has come: bytes done and, when known, the total.
public struct TransferProgress: Sendable, Hashable {
    /// The bytes transferred so far, counting those a resumed download already had.
    public var completed: Int64
    /// The total, when the server said it (`Content-Length` or `Content-Range`).
    public var total: Int64?

    /// Progress of `completed` bytes out of `total`.
    public init(completed: Int64, total: Int64?) {
        self.completed = completed
        self.total = total
    }

    /// `completed / total` between 0 and 1, when the total is known (1 for an empty body).
    public var fraction: Double? {
        total.map { $0 > 0 ? min(1, Double(completed) / Double($0)) : 1 }
    }
}

/// Hands a transfer's progress to a handler at most about 20 times a second: the first
/// value, then one at least 50 ms after the last one handed over, and the final one
/// always — never the same count twice in a row.
struct ProgressReporter: Sendable {
    /// The total each report carries.
    let total: Int64?
    private let handler: (@Sendable (TransferProgress) -> Void)?
    private var last: (at: ContinuousClock.Instant, completed: Int64)?

    /// A reporter of progress towards `total` to `handler` (none: reports nothing).
    init(total: Int64?, handler: (@Sendable (TransferProgress) -> Void)?) {
        self.total = total
        self.handler = handler
    }

    /// Reports zero bytes, unless something was reported already.
    mutating func reportStart() {
        if last == nil { report(0) }
    }

    /// Reports `completed` bytes if it is time to, or at once when `isFinal`.
    mutating func report(_ completed: Int64, isFinal: Bool = false) {
        guard let handler else { return }
        let now = ContinuousClock.now
        if let last, last.completed == completed || (!isFinal && last.at.duration(to: now) < .milliseconds(50)) {
            return
        }
        last = (now, completed)
        handler(TransferProgress(completed: completed, total: total))
    }
}
