import HTTPTypes
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
    /// The endpoint's attributes (see ``Endpoint/attributes``), for middleware to act on;
    /// the call's ``logger`` carries them as metadata.
    public var attributes: [String: String]
    /// The call's options: what features keep on this call under their own keys
    /// (``CallValueKey``) — the endpoint's options (``Endpoint/options``) to begin with,
    /// and whatever a step sets for the steps after it (a redirect step describes the hop
    /// it follows). Changes travel down the chain with the context, not back up: report
    /// back with ``record(_:for:)``.
    public var options: CallValues
    /// The former name of ``options``.
    @available(*, deprecated, renamed: "options")
    public var values: CallValues {
        get { options }
        set { options = newValue }
    }
    /// Whether the caller reads the response body as it arrives (``Networker/stream(_:)``,
    /// a raw ``Networker/send(_:body:options:attributes:logMetadata:idleTimeout:through:)``,
    /// downloads, event streams) rather than whole: a step that would hold the whole body
    /// before passing it on (requests that share one response) leaves such a call alone.
    /// `false` for a context made in a test.
    public internal(set) var streamsResponseBody = false
    /// Changes made to the request just before it reaches the transport, after every step
    /// (see ``adjustBeforeTransport(_:)``).
    private var transportAdjustments: [@Sendable (inout HTTPRequest) -> Void] = []
    /// The logger for this request. For a call of a ``Networker`` its `strata.request`
    /// metadata is an identifier unique within the process, so every line about one
    /// call can be found.
    public var logger: Logger {
        get { ownLogger ?? call.logger }
        set { ownLogger = newValue }
    }
    /// The logger given to the context, or set on it; `nil` for the call's own.
    private var ownLogger: Logger?
    /// The call this context belongs to, shared by its copies.
    let call: Call

    /// Creates a context, for a call of its own (to run a middleware step in a test, say).
    public init(
        attempt: Int = 1,
        deadline: ContinuousClock.Instant? = nil,
        attemptTimeout: Duration? = nil,
        attributes: [String: String] = [:],
        logger: Logger = Logger(label: "strata"),
        options: CallValues = CallValues()
    ) {
        self.init(
            call: Call(), deadline: deadline, attemptTimeout: attemptTimeout, attributes: attributes, options: options)
        self.attempt = attempt
        self.ownLogger = logger
    }

    /// Creates a context, for a call of its own; the former spelling of
    /// ``init(attempt:deadline:attemptTimeout:attributes:logger:options:)``.
    @available(*, deprecated, renamed: "init(attempt:deadline:attemptTimeout:attributes:logger:options:)")
    public init(
        attempt: Int = 1,
        deadline: ContinuousClock.Instant? = nil,
        attemptTimeout: Duration? = nil,
        attributes: [String: String] = [:],
        logger: Logger = Logger(label: "strata"),
        values: CallValues
    ) {
        self.init(
            attempt: attempt, deadline: deadline, attemptTimeout: attemptTimeout, attributes: attributes,
            logger: logger, options: values)
    }

    /// The context of a call of a client, whose logger is the call's.
    init(
        call: Call,
        deadline: ContinuousClock.Instant?,
        attemptTimeout: Duration?,
        attributes: [String: String],
        options: CallValues
    ) {
        self.attempt = 1
        self.deadline = deadline
        self.attemptTimeout = attemptTimeout
        self.attributes = attributes
        self.options = options
        self.call = call
    }

    /// What the call's steps have recorded so far (see ``record(_:for:)``); a
    /// ``Networker`` puts them on the call's ``EndpointResponse/records`` or
    /// ``StrataError/records``.
    public var records: CallValues { call.records }

    /// Reports `value` under `key` for the whole call, replacing what was recorded there:
    /// every copy of this context (earlier steps, other attempts) sees it, and the
    /// ``Networker`` puts it on the call's response or error.
    public func record<Key: CallValueKey>(_ value: Key.Value, for key: Key.Type) {
        call.update { $0.records[key] = value }
    }

    /// Changes what is recorded under `key` (`nil` when nothing is), atomically.
    public func updateRecord<Key: CallValueKey>(_ key: Key.Type, _ change: (inout Key.Value?) -> Void) {
        call.update { change(&$0.records[key]) }
    }

    /// This context for a call whose caller reads the body as it arrives
    /// (``streamsResponseBody``).
    func streamingResponseBody() -> MiddlewareContext {
        var context = self
        context.streamsResponseBody = true
        return context
    }

    /// The deadline of an attempt starting now: the earlier of ``deadline`` and now
    /// plus ``attemptTimeout``.
    public var attemptDeadline: ContinuousClock.Instant? {
        guard let attemptTimeout else { return deadline }
        let attemptEnd = ContinuousClock.now + attemptTimeout
        guard let deadline else { return attemptEnd }
        return min(deadline, attemptEnd)
    }

    /// Has `adjust` change the request just before it reaches the transport, after every
    /// step further in has added what it adds: for a step that decides what must not leave
    /// the client on this call (a redirect to another origin withholds the credentials
    /// that steps such as authentication add). Adjustments apply in the order they were
    /// added, on this context and the copies made from it further in.
    public mutating func adjustBeforeTransport(_ adjust: @escaping @Sendable (inout HTTPRequest) -> Void) {
        transportAdjustments.append(adjust)
    }

    /// `request` as it leaves for the transport: with this context's adjustments
    /// (``adjustBeforeTransport(_:)``) applied. The client applies them before its
    /// transport; a layer that hands requests to a transport of its own applies them too.
    public func adjustedForTransport(_ request: HTTPRequest) -> HTTPRequest {
        guard !transportAdjustments.isEmpty else { return request }
        var adjusted = request
        for adjust in transportAdjustments { adjust(&adjusted) }
        return adjusted
    }
}
