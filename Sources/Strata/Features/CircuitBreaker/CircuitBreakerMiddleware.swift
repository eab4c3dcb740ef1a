import HTTPTypes
import Logging

/// Stops sending requests to a host that keeps failing, under a ``CircuitBreakerPolicy``,
/// so that a struggling server gets time to recover and callers fail at once instead of
/// waiting for it.
///
/// Each host (scheme and `host:port`) has its own breaker; see ``CircuitBreakerPolicy``
/// for when it opens and closes. While a host's breaker is open, calls to it do not
/// reach the middleware after this one: they throw a ``StrataError`` of kind
/// ``StrataError/Kind/circuitOpen`` whose ``StrataError/underlying`` is a
/// ``CircuitOpenError`` saying when a probe will be let through.
///
/// Copies of one middleware share their breakers: give one value to every client that
/// talks to the same hosts, or one to each client to keep them apart. Place it inside a
/// ``RetryMiddleware`` (after it in the array) to count each attempt, and so that a retry
/// fails fast once the breaker opens.
///
/// State changes are logged on ``MiddlewareContext/logger`` — opening at warning level,
/// half-opening and closing at info level — with the metadata `strata.circuit.host`
/// (`host:port`) and `strata.circuit.state` (`open`, `half-open` or `closed`).
public struct CircuitBreakerMiddleware: Middleware {
    /// The rules it follows.
    public let policy: CircuitBreakerPolicy
    private let breakers: Locked<CircuitBreakerTable>
    private let now: @Sendable () -> ContinuousClock.Instant

    /// Creates the step, with every host's breaker closed.
    public init(policy: CircuitBreakerPolicy = CircuitBreakerPolicy()) {
        self.init(policy: policy, now: { ContinuousClock.now })
    }

    /// Creates the step with its own clock, for tests.
    init(policy: CircuitBreakerPolicy, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.policy = policy
        self.now = now
        self.breakers = Locked(CircuitBreakerTable(policy: policy, origin: now()))
    }

    /// Sends `request` unless its host's breaker is open, and counts the outcome.
    /// - Throws: ``StrataError`` of kind ``StrataError/Kind/circuitOpen`` with a
    ///   ``CircuitOpenError`` when the breaker is open, and whatever `next` throws.
    public func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        let host = CircuitHost(request)
        let admittedAt = now()
        let (admission, change) = breakers.withLock {
            $0.admit(host, at: admittedAt, deadline: context.deadline, clock: ContinuousClock.now)
        }
        Self.report(change, host: host, context: context)
        let call: CircuitCall
        switch admission {
        case .rejected(let error):
            throw StrataError(.circuitOpen, underlying: error, request: request)
        case .admitted(let admitted):
            call = admitted
        }
        let response: (HTTPResponse, MessageBody?)
        do {
            response = try await next(request, body, context)
        } catch {
            finish(host, call, outcome(of: error, deadline: context.deadline), context: context)
            throw error
        }
        let failed = policy.failureStatuses.contains(response.0.status.code)
        finish(host, call, failed ? .failure : .success, context: context)
        return response
    }

    /// How many hosts the breakers track, for tests.
    var trackedHosts: Int { breakers.withLock { $0.hosts.count } }

    private func finish(
        _ host: CircuitHost, _ call: CircuitCall, _ outcome: CircuitOutcome, context: MiddlewareContext
    ) {
        let finishedAt = now()
        let change = breakers.withLock { $0.finish(host, call, outcome, at: finishedAt) }
        Self.report(change, host: host, context: context)
    }

    /// What an error out of `next` says about the host. A cancellation is no verdict,
    /// unless the call's deadline had passed: then it is the timeout that cut the call off.
    private func outcome(of error: any Error, deadline: ContinuousClock.Instant?) -> CircuitOutcome {
        let timedOut = deadline.map { ContinuousClock.now >= $0 } ?? false
        let strataError = error as? StrataError
        if let transportError = (error as? TransportError) ?? strataError?.transportError {
            return transportError.kind == .timedOut || timedOut || !Task.isCancelled ? .failure : .ignored
        }
        if let status = strataError?.status {
            return policy.failureStatuses.contains(status.code) ? .failure : .success
        }
        let cancelled = error is CancellationError || strataError?.isCancelled == true
        return cancelled && timedOut ? .failure : .ignored
    }

    /// Logs a state change and records it on the call (``EndpointResponse/circuitTransitions``).
    private static func report(_ change: CircuitState.Name?, host: CircuitHost, context: MiddlewareContext) {
        guard let change else { return }
        context.logger.log(
            level: change == .open ? .warning : .info, "circuit \(change.rawValue)",
            metadata: ["strata.circuit.host": "\(host.authority)", "strata.circuit.state": "\(change.rawValue)"])
        context.updateRecord(CircuitTransitionsKey.self) {
            $0 = ($0 ?? []) + [CircuitTransition(host: host.authority, state: change.rawValue)]
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

/// A breaker's key: the request's scheme and authority, lowercased.
struct CircuitHost: Hashable {
    let scheme: String
    let authority: String

    init(_ request: HTTPRequest) {
        scheme = request.scheme?.lowercased() ?? ""
        authority = request.authority?.lowercased() ?? ""
    }
}

/// How a call was let through.
enum CircuitRole {
    /// While closed: its outcome is counted.
    case normal
    /// The one call of a half-open breaker: its outcome closes or reopens it.
    case probe
    /// Beyond the host limit: not counted.
    case untracked
}

/// A call `admit` let through: its role, and the id it is tracked under while in flight
/// when it has a deadline.
struct CircuitCall {
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

/// What a call says about its host.
enum CircuitOutcome {
    case success
    case failure
    /// A cancellation or an error that says nothing about the host.
    case ignored
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

extension CircuitBreakerMiddleware {
    /// `true`: it waits for nothing but `next`.
    public var boundsItsWaits: Bool { true }
}
