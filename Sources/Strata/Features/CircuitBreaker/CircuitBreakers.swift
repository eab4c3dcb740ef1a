import HTTPTypes
import Logging

/// The breakers of one circuit-breaker step, one a target (a host for HTTP, a server for
/// gRPC), shared by its copies: the one implementation of when a breaker opens and closes
/// (``CircuitBreakerPolicy``) that Strata's HTTP step and its gRPC interceptor both drive,
/// each saying only what a call's outcome says about its target.
package final class CircuitBreakers: Sendable {
    private let table: Locked<CircuitBreakerTable>
    private let now: @Sendable () -> ContinuousClock.Instant

    /// Breakers under `policy`, all closed, on the clock `now`.
    package init(policy: CircuitBreakerPolicy, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.now = now
        table = Locked(CircuitBreakerTable(policy: policy, origin: now()))
    }

    /// Lets a call to `target` through, or refuses it; a state change is logged and
    /// recorded on the call.
    /// - Throws: ``CircuitOpenError`` while the target's breaker is open.
    package func admit(_ target: CircuitHost, context: MiddlewareContext) throws(CircuitOpenError) -> CircuitCall {
        let admittedAt = now()
        let (admission, change) = table.withLock {
            $0.admit(target, at: admittedAt, deadline: context.deadline, clock: ContinuousClock.now)
        }
        Self.report(change, target: target, context: context)
        switch admission {
        case .rejected(let error): throw error
        case .admitted(let call): return call
        }
    }

    /// Counts the outcome of a call ``admit(_:context:)`` let through.
    package func finish(
        _ target: CircuitHost, _ call: CircuitCall, _ outcome: CircuitOutcome, context: MiddlewareContext
    ) {
        let finishedAt = now()
        let change = table.withLock { $0.finish(target, call, outcome, at: finishedAt) }
        Self.report(change, target: target, context: context)
    }

    /// How many targets the breakers track, for tests.
    package var trackedHosts: Int { table.withLock { $0.hosts.count } }

    /// Logs a state change and records it on the call (``EndpointResponse/circuitTransitions``).
    private static func report(_ change: CircuitState.Name?, target: CircuitHost, context: MiddlewareContext) {
        guard let change else { return }
        context.logger.log(
            level: change == .open ? .warning : .info, "circuit \(change.rawValue)",
            metadata: ["strata.circuit.host": "\(target.authority)", "strata.circuit.state": "\(change.rawValue)"])
        context.updateRecord(CircuitTransitionsKey.self) {
            $0 = ($0 ?? []) + [CircuitTransition(host: target.authority, state: change.rawValue)]
        }
    }
}

/// The breakers a ``CircuitBreakerMiddleware`` keeps, one a host, within the policy's
/// ``CircuitBreakerPolicy/maxHosts``.
struct CircuitBreakerTable {
    let policy: CircuitBreakerPolicy
    /// The instant bucket 0 starts at.
    let origin: ContinuousClock.Instant
    private(set) var hosts: [CircuitHost: HostBreaker] = [:]
    /// The last id given to a call with a deadline.
    private(set) var nextCallID: UInt64 = 0

    /// Lets a call to `host` through, as a normal call or as the probe, or refuses it.
    ///
    /// Calls let through before whose `deadline` has passed by `clock` (the real time the
    /// deadlines are on) are counted as failures first, whether or not they have ended:
    /// a client gives a timed-out call's caller its error at once and abandons the work
    /// still running, so this step may see that call end only later (or, after a next
    /// call has started). Such a call's own outcome is not counted again.
    mutating func admit(
        _ host: CircuitHost,
        at now: ContinuousClock.Instant,
        deadline: ContinuousClock.Instant? = nil,
        clock: ContinuousClock.Instant = .now
    ) -> (CircuitAdmission, CircuitState.Name?) {
        let expiredChange = countExpiredCalls(to: host, by: clock, at: now)
        let (admission, change) = admitting(host, at: now)
        guard case .admitted(var call) = admission, let deadline, call.role != .untracked else {
            return (admission, change ?? expiredChange)
        }
        nextCallID &+= 1
        call.id = nextCallID
        hosts[host]?.inFlight[nextCallID] = CircuitInFlight(role: call.role, deadline: deadline)
        return (.admitted(call), change ?? expiredChange)
    }

    /// Counts the calls to `host` whose deadline passed by `clock` as failures.
    private mutating func countExpiredCalls(
        to host: CircuitHost, by clock: ContinuousClock.Instant, at now: ContinuousClock.Instant
    ) -> CircuitState.Name? {
        // The common case, nothing expired, allocates nothing.
        guard let inFlight = hosts[host]?.inFlight, inFlight.values.contains(where: { $0.deadline <= clock }) else {
            return nil
        }
        let expired = inFlight.filter { $0.value.deadline <= clock }
        var change: CircuitState.Name?
        for (id, call) in expired.sorted(by: { $0.key < $1.key }) {
            change = finish(host, CircuitCall(role: call.role, id: id), .failure, at: now) ?? change
        }
        return change
    }

    private mutating func admitting(_ host: CircuitHost, at now: ContinuousClock.Instant) -> (
        CircuitAdmission, CircuitState.Name?
    ) {
        let known = hosts[host]
        guard var breaker = known ?? makeBreaker(at: now) else {
            return (.admitted(CircuitCall(role: .untracked)), nil)
        }
        defer { hosts[host] = breaker }
        switch breaker.state {
        case .closed:
            return (.admitted(CircuitCall(role: .normal)), nil)
        case .open(let until) where now < until:
            return (.rejected(CircuitOpenError(host: host.authority, retryAfter: until - now, isProbing: false)), nil)
        case .open:
            breaker.state = .halfOpen(probing: true)
            return (.admitted(CircuitCall(role: .probe)), .halfOpen)
        case .halfOpen(probing: true):
            return (.rejected(CircuitOpenError(host: host.authority, retryAfter: .zero, isProbing: true)), nil)
        case .halfOpen(probing: false):
            breaker.state = .halfOpen(probing: true)
            return (.admitted(CircuitCall(role: .probe)), nil)
        }
    }

    /// Counts the outcome of a call `admit` let through; returns the state entered, if any.
    /// A tracked call that was counted already (its deadline passed) is not counted again.
    mutating func finish(
        _ host: CircuitHost, _ call: CircuitCall, _ outcome: CircuitOutcome, at now: ContinuousClock.Instant
    ) -> CircuitState.Name? {
        guard var breaker = hosts[host] else { return nil }
        if let id = call.id, breaker.inFlight.removeValue(forKey: id) == nil { return nil }
        defer { hosts[host] = breaker }
        switch (call.role, breaker.state, outcome) {
        case (.untracked, _, _), (.normal, .open, _), (.normal, .halfOpen, _), (.normal, .closed, .ignored),
            (.probe, .closed, _), (.probe, .open, _):
            return nil
        case (.probe, .halfOpen, .ignored):
            breaker.state = .halfOpen(probing: false)
            return nil
        case (.probe, .halfOpen, .success):
            let inFlight = breaker.inFlight
            breaker = HostBreaker(buckets: policy.buckets)
            breaker.inFlight = inFlight
            return .closed
        case (.probe, .halfOpen, .failure):
            breaker.open(until: now + policy.breakDuration)
            return .open
        case (.normal, .closed, .success), (.normal, .closed, .failure):
            let epoch = epoch(at: now)
            breaker.record(failed: outcome == .failure, at: epoch)
            guard outcome == .failure, trips(breaker, at: epoch) else { return nil }
            breaker.open(until: now + policy.breakDuration)
            return .open
        }
    }

    /// Whether a closed breaker that just counted a failure opens.
    private func trips(_ breaker: HostBreaker, at epoch: Int64) -> Bool {
        if breaker.consecutiveFailures >= max(policy.consecutiveFailures, 1) { return true }
        let (calls, failures) = breaker.window.totals(at: epoch)
        return calls >= max(policy.minimumThroughput, 1) && Double(failures) >= policy.failureRatio * Double(calls)
    }

    /// A fresh breaker, after forgetting idle hosts if the table is full; `nil` if it stays full.
    private mutating func makeBreaker(at now: ContinuousClock.Instant) -> HostBreaker? {
        if hosts.count >= policy.maxHosts {
            let epoch = epoch(at: now)
            hosts = hosts.filter { !$0.value.isIdle(at: epoch) }
        }
        return hosts.count < policy.maxHosts ? HostBreaker(buckets: policy.buckets) : nil
    }

    /// The number of the bucket `now` falls in.
    private func epoch(at now: ContinuousClock.Instant) -> Int64 {
        max(CircuitBreakerPolicy.nanoseconds(now - origin), 0) / policy.bucketNanoseconds
    }
}

/// A breaker's key: a scheme and an authority, lowercased.
package struct CircuitHost: Hashable, Sendable {
    package let scheme: String
    package let authority: String

    /// The target `scheme://authority` (`grpc` and `127.0.0.1:50051`, say).
    package init(scheme: String, authority: String) {
        self.scheme = scheme.lowercased()
        self.authority = authority.lowercased()
    }

    /// The request's scheme and authority.
    init(_ request: HTTPRequest) {
        self.init(scheme: request.scheme ?? "", authority: request.authority ?? "")
    }
}

/// How a call was let through.
enum CircuitRole: Sendable {
    /// While closed: its outcome is counted.
    case normal
    /// The one call of a half-open breaker: its outcome closes or reopens it.
    case probe
    /// Beyond the host limit: not counted.
    case untracked
}

/// A call `admit` let through: its role, and the id it is tracked under while in flight
/// when it has a deadline.
package struct CircuitCall: Sendable {
    let role: CircuitRole
    var id: UInt64?

    init(role: CircuitRole, id: UInt64? = nil) {
        self.role = role
        self.id = id
    }
}

/// A call in flight that has a deadline: counted as a failure once the deadline passes.
struct CircuitInFlight {
    let role: CircuitRole
    let deadline: ContinuousClock.Instant
}

/// What `admit` decided.
enum CircuitAdmission {
    case admitted(CircuitCall)
    case rejected(CircuitOpenError)
}

/// What a call says about its target.
package enum CircuitOutcome: Sendable {
    /// The target answered as it should.
    case success
    /// The target failed, or did not answer in time.
    case failure
    /// A cancellation or an error that says nothing about the target.
    case ignored

    /// A cancelled call: no verdict, unless the call's `deadline` had passed — then it is
    /// the timeout that cut the call off.
    package static func cancellation(deadline: ContinuousClock.Instant?) -> CircuitOutcome {
        Deadline.hasPassed(deadline) ? .failure : .ignored
    }
}

/// Where a host's breaker is.
enum CircuitState {
    case closed
    case open(until: ContinuousClock.Instant)
    /// `probing` while the probe is in flight.
    case halfOpen(probing: Bool)

    /// The state's name, for logs.
    enum Name: String {
        case closed
        case open
        case halfOpen = "half-open"
    }
}

/// One host's breaker.
struct HostBreaker {
    var state = CircuitState.closed
    private(set) var window: CircuitWindow
    private(set) var consecutiveFailures = 0
    /// The calls let through that have a deadline and have not been counted yet, by id.
    var inFlight: [UInt64: CircuitInFlight] = [:]

    init(buckets: Int) {
        window = CircuitWindow(buckets: buckets)
    }

    /// Counts a call in the window. A window without calls ends a run of failures.
    mutating func record(failed: Bool, at epoch: Int64) {
        if window.totals(at: epoch).calls == 0 { consecutiveFailures = 0 }
        window.record(failed: failed, at: epoch)
        consecutiveFailures = failed ? consecutiveFailures + 1 : 0
    }

    /// Opens the breaker and forgets the counts.
    mutating func open(until: ContinuousClock.Instant) {
        state = .open(until: until)
        window.reset()
        consecutiveFailures = 0
    }

    /// Closed with no call within the window or in flight: the same as a fresh breaker.
    func isIdle(at epoch: Int64) -> Bool {
        guard case .closed = state, inFlight.isEmpty else { return false }
        return window.totals(at: epoch).calls == 0
    }
}

/// Calls and failures over the last `buckets` buckets, in a ring of fixed size.
struct CircuitWindow {
    private struct Bucket {
        var epoch = Int64.min
        var calls = 0
        var failures = 0
    }

    private var slots: [Bucket]

    init(buckets: Int) {
        slots = Array(repeating: Bucket(), count: max(buckets, 1))
    }

    /// Counts a call in bucket `epoch` (never negative).
    mutating func record(failed: Bool, at epoch: Int64) {
        let index = Int(epoch % Int64(slots.count))
        if slots[index].epoch != epoch { slots[index] = Bucket(epoch: epoch) }
        slots[index].calls += 1
        if failed { slots[index].failures += 1 }
    }

    /// The calls and failures in bucket `epoch` and the ones before it within the window.
    func totals(at epoch: Int64) -> (calls: Int, failures: Int) {
        let oldest = epoch - Int64(slots.count)
        return slots.reduce(into: (calls: 0, failures: 0)) { totals, bucket in
            guard bucket.epoch > oldest, bucket.epoch <= epoch else { return }
            totals.calls += bucket.calls
            totals.failures += bucket.failures
        }
    }

    /// Empties every bucket.
    mutating func reset() {
        slots = Array(repeating: Bucket(), count: slots.count)
    }
}
