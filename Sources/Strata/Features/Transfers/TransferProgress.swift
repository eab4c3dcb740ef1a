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
