/// When ``CircuitBreakerMiddleware`` stops sending requests to a host, and for how long.
///
/// Each host (scheme and authority, `host:port`) has its own breaker. While it is
/// **closed**, calls go through and their outcomes are counted in a sliding window of
/// ``window`` (10 s by default), kept in ``buckets`` buckets (10, so one per second) so
/// that its memory is fixed. It **opens** when a failure brings either
/// - the failures within the window to ``failureRatio`` of the calls (0.5) or more, once
///   there were at least ``minimumThroughput`` calls (10); or
/// - the run of consecutive failures to ``consecutiveFailures`` (5); a window's length
///   without any call ends a run.
///
/// While **open**, calls fail at once with ``StrataError/Kind/circuitOpen``, without
/// reaching the transport. After ``breakDuration`` (5 s) the breaker is **half-open**:
/// the next call goes through as the one probe while the others still fail fast. A probe
/// that succeeds closes the breaker with an empty window; one that fails opens it for
/// another ``breakDuration``; a cancelled one lets the next call probe instead.
///
/// A failure is a response whose status is in ``failureStatuses`` (`500`, `502`, `503`,
/// `504`) or a ``TransportError`` (a timeout included). Any other response — a `4xx`,
/// say — is a success. A cancelled call counts as neither, and so does any other error
/// (a middleware's own failure). Only the response head is judged: a failure while
/// reading the body is not seen.
public struct CircuitBreakerPolicy: Sendable, Hashable {
    /// The share of failed calls within the window, from 0 to 1, that opens the breaker;
    /// 0.5 by default.
    public var failureRatio: Double
    /// How many calls the window must hold before ``failureRatio`` can open the breaker;
    /// 10 by default.
    public var minimumThroughput: Int
    /// How far back the failure ratio looks; 10 seconds by default.
    public var window: Duration
    /// How many buckets the window is counted in (each covers `window / buckets`); calls
    /// leave the window a bucket at a time. 10 by default.
    public var buckets: Int
    /// How many failures in a row open the breaker, whatever the window holds; 5 by
    /// default. `Int.max` turns this rule off.
    public var consecutiveFailures: Int
    /// How long the breaker stays open before it lets a probe through; 5 seconds by default.
    public var breakDuration: Duration
    /// The response statuses that count as failures.
    public var failureStatuses: Set<Int>
    /// How many hosts with recent calls the middleware tracks; 1000 by default. Hosts
    /// that are closed and had no call within the window are forgotten first; a host
    /// beyond the limit is not guarded until others are forgotten.
    public var maxHosts: Int

    /// Creates a policy; see the type's documentation for the defaults.
    public init(
        failureRatio: Double = 0.5,
        minimumThroughput: Int = 10,
        window: Duration = .seconds(10),
        buckets: Int = 10,
        consecutiveFailures: Int = 5,
        breakDuration: Duration = .seconds(5),
        failureStatuses: Set<Int> = [500, 502, 503, 504],
        maxHosts: Int = 1000
    ) {
        self.failureRatio = failureRatio
        self.minimumThroughput = minimumThroughput
        self.window = window
        self.buckets = buckets
        self.consecutiveFailures = consecutiveFailures
        self.breakDuration = breakDuration
        self.failureStatuses = failureStatuses
        self.maxHosts = maxHosts
    }

    /// The length of one bucket, at least a nanosecond.
    var bucketNanoseconds: Int64 {
        max(Self.nanoseconds(window) / Int64(max(buckets, 1)), 1)
    }

    /// `duration` in whole nanoseconds, saturating at the ends of `Int64`.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (total, overflowSum) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowSum ? (seconds < 0 ? .min : .max) : total
    }
}
