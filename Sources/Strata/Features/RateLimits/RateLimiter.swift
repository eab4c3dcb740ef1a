/// The token buckets of a ``RateLimitMiddleware``, one per partition (a host, by default),
/// what the servers said about them, and the calls waiting for a token (a ``WaitingLine``).
///
/// A call takes a token at once when its partition has one and no call waits there before
/// it; otherwise it queues, and one timer per partition with waiters wakes them when the
/// next token (or the end of a pause) is due. Every change happens under one lock; waiters
/// are resumed after it is released.
final class RateLimiter: Sendable {
    /// One partition's bucket and what its server said.
    struct Bucket {
        var tokens: Double
        var refilledAt: ContinuousClock.Instant
        /// No call goes before this (a `Retry-After`, a quota used up).
        var pausedUntil: ContinuousClock.Instant?
        /// The requests the server still allows until `until`.
        var quota: (remaining: Int, until: ContinuousClock.Instant)?
        /// The timer that wakes this partition's waiters, while some wait.
        var wake: DeadlineAlarm?
    }

    private struct Buckets {
        var byKey: [String: Bucket] = [:]
        let rate: Double
        let burst: Double

        /// A token, as the bucket counts it: one, less what floating-point sums lose.
        static let whole = 1 - 1e-9

        /// Takes a token of `key` if one is free now (one dictionary access: the common case).
        mutating func take(_ key: String, now: ContinuousClock.Instant) -> Void? {
            Self.take(
                from: &byKey[key, default: Bucket(tokens: burst, refilledAt: now)], now: now, rate: rate, burst: burst)
        }

        private static func take(
            from bucket: inout Bucket, now: ContinuousClock.Instant, rate: Double, burst: Double
        ) -> Void? {
            refill(&bucket, now: now, rate: rate, burst: burst)
            if let until = bucket.pausedUntil {
                guard until <= now else { return nil }
                bucket.pausedUntil = nil
            }
            if let quota = bucket.quota {
                if quota.until <= now {
                    bucket.quota = nil
                } else if quota.remaining <= 0 {
                    return nil
                }
            }
            guard bucket.tokens >= Self.whole else { return nil }
            bucket.tokens = max(bucket.tokens - 1, 0)
            bucket.quota?.remaining -= 1
            return ()
        }

        /// Adds the tokens `bucket` earned since it was last refilled.
        private static func refill(_ bucket: inout Bucket, now: ContinuousClock.Instant, rate: Double, burst: Double) {
            guard bucket.tokens < burst else {
                bucket.refilledAt = now
                return
            }
            let earned = Double(bucket.refilledAt.duration(to: now) / .nanoseconds(1)) / 1e9 * rate
            bucket.tokens = min(burst, bucket.tokens + max(earned, 0))
            bucket.refilledAt = now
        }

        /// Refills `key` up to `instant` and no further, and forgets the time since: a wake-up
        /// that fires late (a loaded machine) does not earn its delay back as a burst, so
        /// queued calls never go faster than the rate.
        mutating func settle(_ key: String, upTo instant: ContinuousClock.Instant, now: ContinuousClock.Instant) {
            guard var bucket = byKey[key] else { return }
            Self.refill(&bucket, now: min(instant, now), rate: rate, burst: burst)
            bucket.refilledAt = max(bucket.refilledAt, now)
            byKey[key] = bucket
        }

        /// `key`'s bucket with the tokens earned since it was last refilled.
        func refilled(_ key: String, now: ContinuousClock.Instant) -> Bucket {
            var bucket = byKey[key] ?? Bucket(tokens: burst, refilledAt: now)
            Self.refill(&bucket, now: now, rate: rate, burst: burst)
            return bucket
        }

        /// When `key` can next hand out a token.
        func nextToken(_ key: String, now: ContinuousClock.Instant) -> ContinuousClock.Instant {
            let bucket = refilled(key, now: now)
            var ready = now
            if bucket.tokens < Self.whole {
                // Rounded up: a wake-up due a nanosecond early would find a token short, and
                // wait again for ever smaller fractions.
                ready = now + .nanoseconds(Int64(((1 - bucket.tokens) / rate * 1e9).rounded(.up)))
            }
            if let until = bucket.pausedUntil { ready = max(ready, until) }
            if let quota = bucket.quota, quota.remaining <= 0 { ready = max(ready, quota.until) }
            return ready
        }
    }

    private struct State {
        var buckets: Buckets
        var line: WaitingLine<String, Void>
    }

    private let state: Locked<State>
    let rate: Double
    let burst: Int
    var queueLimit: Int { state.withLock { $0.line.limit } }

    /// `rate` is kept between a token every 1,000 s and 10⁹ a second (a rate that is not a
    /// number is 1), so that every wait for a token is a representable duration.
    init(rate: Double, burst: Int, queueLimit: Int) {
        self.rate = rate.isNaN ? 1 : min(max(rate, 0.001), 1e9)
        self.burst = max(1, burst)
        state = Locked(
            State(buckets: Buckets(rate: self.rate, burst: Double(self.burst)), line: WaitingLine(limit: queueLimit)))
    }

    /// The calls waiting, for tests and diagnostics.
    var queued: Int { state.withLock { $0.line.count } }

    /// Takes a token of `key`, waiting for one until `deadline`. A partition with a token
    /// free and no one waiting takes it at once, with no continuation or timer.
    /// - Throws: ``RateLimitError/queueFull(limit:)`` at once when the queue is full; what
    ///   ``Locked/wait(in:for:priority:until:take:)`` throws at the deadline or on
    ///   cancellation.
    func acquire(_ key: String, priority: Int, until deadline: ContinuousClock.Instant?) async throws {
        do {
            try await state.wait(in: \.line, for: key, priority: priority, until: deadline) { state in
                let now = ContinuousClock.now
                if !state.line.contains(key), let token = state.buckets.take(key, now: now) { return token }
                // The caller queues: make sure a timer will wake the partition's line.
                var bucket = state.buckets.refilled(key, now: now)
                if bucket.wake == nil { bucket.wake = armWake(key, at: state.buckets.nextToken(key, now: now)) }
                state.buckets.byKey[key] = bucket
                return nil
            }
        } catch WaitingLineRefusal.full(let limit) {
            throw RateLimitError.queueFull(limit: limit)
        }
    }

    /// Learns what `server` said about `key`: a pause, a quota until a reset.
    func learn(_ server: ServerRateLimit, for key: String) {
        let now = ContinuousClock.now
        state.withLock { state in
            var bucket = state.buckets.refilled(key, now: now)
            var pauses: [ContinuousClock.Instant] = bucket.pausedUntil.map { [$0] } ?? []
            if let pause = server.pause { pauses.append(now + pause) }
            if let remaining = server.remaining {
                let reset = now + (server.reset ?? .seconds(1))
                if remaining == 0 { pauses.append(reset) } else { bucket.quota = (remaining, reset) }
            }
            bucket.pausedUntil = pauses.max()
            state.buckets.byKey[key] = bucket
        }
    }

    /// A timer that wakes `key`'s waiters at `instant`.
    private func armWake(_ key: String, at instant: ContinuousClock.Instant) -> DeadlineAlarm {
        DeadlineAlarm(deadline: instant) { [weak self] in self?.wake(key) }
    }

    /// Hands `key`'s free tokens to its waiters in line order, and sets the next timer while
    /// some still wait.
    private func wake(_ key: String) {
        let granted = state.withLock { state in
            let now = ContinuousClock.now
            if let scheduled = state.buckets.byKey[key]?.wake?.deadline {
                state.buckets.settle(key, upTo: scheduled, now: now)
            }
            state.buckets.byKey[key]?.wake = nil
            let granted = state.line.grant { $0 == key ? state.buckets.take(key, now: now) : nil }
            if state.line.contains(key) {
                let next = state.buckets.nextToken(key, now: now)
                state.buckets.byKey[key]?.wake = armWake(key, at: next)
            }
            return granted
        }
        for waiter in granted { waiter.resume() }
    }
}
