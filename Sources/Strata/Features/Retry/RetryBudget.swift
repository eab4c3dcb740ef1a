/// The retries a client may make, shared by all its calls, so a failing server does
/// not get its traffic multiplied by the attempt count.
///
/// A token bucket in the spirit of gRPC's retry throttling and tower's retry budget:
/// every call puts ``ratio`` of a token in (0.2 by default: one retry per five calls),
/// every retry takes a whole token out, and ``minimumPerSecond`` tokens (10 by default)
/// trickle in each second so a client with little traffic can still retry. The bucket
/// starts with one second's trickle and holds at most ``capacity`` tokens. Over any
/// stretch of time, retries stay below `ratio × calls + minimumPerSecond × seconds`
/// plus what the bucket held at its start.
///
/// When the bucket is empty, ``RetryMiddleware`` stops and the call ends with its last
/// response or error, with ``RetrySummary/StopReason/budgetSpent``. Share one budget
/// per client (``RetryMiddleware`` copies share theirs); give clients of different
/// servers budgets of their own.
public final class RetryBudget: Sendable {
    /// The share of a token each call adds.
    public let ratio: Double
    /// The tokens added each second whatever the traffic.
    public let minimumPerSecond: Double
    /// The most tokens the bucket holds.
    public let capacity: Double

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let bucket: Locked<Bucket>
    private let now: @Sendable () -> ContinuousClock.Instant

    /// Creates a budget; see the type's documentation.
    /// - Parameters:
    ///   - ratio: the share of a token each call adds, at least 0.
    ///   - minimumPerSecond: the tokens added each second, at least 0.
    ///   - capacity: the most tokens held; by default ten seconds' trickle, at least 1.
    public convenience init(ratio: Double = 0.2, minimumPerSecond: Double = 10, capacity: Double? = nil) {
        self.init(ratio: ratio, minimumPerSecond: minimumPerSecond, capacity: capacity, now: { .now })
    }

    /// Creates a budget on its own clock, for tests.
    init(
        ratio: Double, minimumPerSecond: Double, capacity: Double?,
        now: @escaping @Sendable () -> ContinuousClock.Instant
    ) {
        self.ratio = ratio.isFinite ? max(ratio, 0) : 0
        self.minimumPerSecond = minimumPerSecond.isFinite ? max(minimumPerSecond, 0) : 0
        let capacity = capacity ?? self.minimumPerSecond * 10
        self.capacity = capacity.isFinite ? max(capacity, 1) : 1
        self.now = now
        self.bucket = Locked(Bucket(tokens: min(self.minimumPerSecond, self.capacity), updated: now()))
    }

    /// The tokens in the bucket now.
    public var balance: Double {
        let now = now()
        return bucket.withLock { refill(&$0, at: now) }
    }

    /// Counts one call: adds ``ratio`` of a token.
    func deposit() {
        let now = now()
        bucket.withLock { bucket in
            bucket.tokens = min(refill(&bucket, at: now) + ratio, capacity)
        }
    }

    /// Takes a token for one retry; `false` when there is none.
    func withdraw() -> Bool {
        let now = now()
        return bucket.withLock { bucket in
            guard refill(&bucket, at: now) >= 1 else { return false }
            bucket.tokens -= 1
            return true
        }
    }

    /// Adds the trickle since the last update and returns the tokens.
    private func refill(_ bucket: inout Bucket, at now: ContinuousClock.Instant) -> Double {
        let elapsed = bucket.updated.duration(to: now)
        if elapsed > .zero {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            bucket.tokens = min(bucket.tokens + seconds * minimumPerSecond, capacity)
            bucket.updated = now
        }
        return bucket.tokens
    }
}
