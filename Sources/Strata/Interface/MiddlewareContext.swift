import Logging

/// What middleware knows about the request in flight besides the request itself.
///
/// ## Deadlines
/// The ``Networker`` owns time. It enforces ``deadline`` for the whole call (every
/// attempt, the response body included) with one timer per call, whatever the
/// transport does; a transport that ignores the deadline it receives cannot switch
/// timeouts off. ``attemptTimeout``, when set, bounds each pass through the transport
/// (from sending the request to the response head); the Networker enforces it too,
/// every time the chain reaches the transport. Transports receive the earlier of the
/// two deadlines only so that they can abort early.
public struct MiddlewareContext: Sendable {
    /// The attempt number, starting at 1; retrying middleware increments it.
    public var attempt: Int
    /// When the whole call must be over, or `nil` for no limit.
    public var deadline: ContinuousClock.Instant?
    /// Whether ``deadline`` has passed: a step that ends its own wait early (a failure it
    /// caught, a cancellation) asks it to tell the call's timeout from other endings.
    public var deadlineHasPassed: Bool { Deadline.hasPassed(deadline) }
    /// How long one attempt may wait for the response head, or `nil` for no limit
    /// besides ``deadline``.
    public var attemptTimeout: Duration?
    /// The endpoint's attributes (see ``Endpoint/attributes``), for middleware to act on.
    public var attributes: [String: String]
    /// Values features keep on this call under their own keys (``CallValueKey``): the
    /// endpoint's options (``Endpoint/options``) to begin with, and whatever a step sets
    /// for the steps after it (a redirect step describes the hop it follows). Changes
    /// travel down the chain with the context, not back up: report back with
    /// ``record(_:for:)``.
    public var values: CallValues
    /// Whether the credential fields (`Authorization`, `Cookie`, `Proxy-Authorization`)
    /// are removed from the request just before the transport, whatever steps added on
    /// the way; set by a step that sends the request where its credentials must not go
    /// (a redirect to another origin).
    public var withholdsCredentials = false
    /// The logger for this request. For a call of a ``Networker`` its `strata.request`
    /// metadata is an identifier unique within the process, so every line about one
    /// call can be found.
    public var logger: Logger {
        get { ownLogger ?? exchange.logger }
        set { ownLogger = newValue }
    }
    /// The logger given to the context, or set on it; `nil` for the call's own.
    private var ownLogger: Logger?
    /// The call this context belongs to, shared by its copies.
    let exchange: Exchange

    /// Creates a context, for a call of its own (to run a middleware step in a test, say).
    public init(
        attempt: Int = 1,
        deadline: ContinuousClock.Instant? = nil,
        attemptTimeout: Duration? = nil,
        attributes: [String: String] = [:],
        logger: Logger = Logger(label: "strata"),
        values: CallValues = CallValues()
    ) {
        self.init(
            exchange: Exchange(), deadline: deadline, attemptTimeout: attemptTimeout,
            attributes: attributes, values: values)
        self.attempt = attempt
        self.ownLogger = logger
    }

    /// The context of a call of a ``Networker``, whose logger is the exchange's.
    init(
        exchange: Exchange,
        deadline: ContinuousClock.Instant?,
        attemptTimeout: Duration?,
        attributes: [String: String],
        values: CallValues
    ) {
        self.attempt = 1
        self.deadline = deadline
        self.attemptTimeout = attemptTimeout
        self.attributes = attributes
        self.values = values
        self.exchange = exchange
    }

    /// What the call's steps have recorded so far (see ``record(_:for:)``); a
    /// ``Networker`` puts them on the call's ``EndpointResponse/records`` or
    /// ``StrataError/records``.
    public var records: CallValues { exchange.records }

    /// Reports `value` under `key` for the whole call, replacing what was recorded there:
    /// every copy of this context (earlier steps, other attempts) sees it, and the
    /// ``Networker`` puts it on the call's response or error.
    public func record<Key: CallValueKey>(_ value: Key.Value, for key: Key.Type) {
        exchange.update { $0.records[key] = value }
    }

    /// Changes what is recorded under `key` (`nil` when nothing is), atomically.
    public func updateRecord<Key: CallValueKey>(_ key: Key.Type, _ change: (inout Key.Value?) -> Void) {
        exchange.update { change(&$0.records[key]) }
    }

    /// Leaves work for after the call (a background revalidation, say): once the call's
    /// exchange ends, its ``Networker`` runs `work` in a task of its own, handing it the
    /// client to send requests through, unless work with the same `id` is under way there.
    /// The work outlives the call, not the client: see ``Networker/background``. Bound
    /// its own time; without a ``Networker`` (a context made with ``init(attempt:deadline:attemptTimeout:attributes:logger:values:)``)
    /// it is never run.
    public func afterCall(id: some Hashable & Sendable, _ work: @escaping @Sendable (Networker) async -> Void) {
        exchange.update { $0.followUps.append(Exchange.FollowUp(id: BackgroundWork.ID(id), work: work)) }
    }

    /// The deadline of an attempt starting now: the earlier of ``deadline`` and now
    /// plus ``attemptTimeout``.
    public var attemptDeadline: ContinuousClock.Instant? {
        guard let attemptTimeout else { return deadline }
        let attemptEnd = ContinuousClock.now + attemptTimeout
        guard let deadline else { return attemptEnd }
        return min(deadline, attemptEnd)
    }
}
