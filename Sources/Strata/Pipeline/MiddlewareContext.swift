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
    /// How long one attempt may wait for the response head, or `nil` for no limit
    /// besides ``deadline``.
    public var attemptTimeout: Duration?
    /// The endpoint's attributes (see ``Endpoint/attributes``), for middleware to act on.
    public var attributes: [String: String]
    /// The logger for this request. For a call of a ``Networker`` its `strata.request`
    /// metadata is an identifier unique within the process, so every line about one
    /// call can be found.
    public var logger: Logger {
        get { callLogger?.logger ?? ownLogger }
        set {
            ownLogger = newValue
            callLogger = nil
        }
    }
    /// The logger given to the context, or set on it.
    private var ownLogger: Logger
    /// The call's logger, made when first read; set by the ``Networker``.
    var callLogger: CallLogger?
    /// The redirect this request follows, set by ``RedirectMiddleware``; `nil` for the
    /// call's first request. When ``RedirectHop/withholdsCredentials`` is set, the
    /// credential fields are removed from the request just before the transport, whatever
    /// middleware added on the way.
    public var redirect: RedirectHop?
    /// The endpoint's retry rule (see ``Endpoint/retry``), for ``RetryMiddleware``.
    public var retry: RetryRule?
    /// Where ``RetryMiddleware`` leaves the call's ``RetrySummary``; set by the
    /// ``Networker`` when its middleware retries.
    var retryRecord: RetryRecord?
    /// The endpoint's cache strategy (see ``Endpoint/cache``), for ``CacheMiddleware``.
    public var cache: CacheStrategy?
    /// Where ``CacheMiddleware`` leaves the call's ``CacheOutcome`` and the background
    /// revalidation it owes; set by the ``Networker`` when its middleware caches.
    var cacheRecord: CallRecord<CacheCall>?

    /// Creates a context.
    public init(
        attempt: Int = 1,
        deadline: ContinuousClock.Instant? = nil,
        attemptTimeout: Duration? = nil,
        attributes: [String: String] = [:],
        logger: Logger = Logger(label: "strata"),
        redirect: RedirectHop? = nil,
        retry: RetryRule? = nil,
        cache: CacheStrategy? = nil
    ) {
        self.attempt = attempt
        self.deadline = deadline
        self.attemptTimeout = attemptTimeout
        self.attributes = attributes
        self.ownLogger = logger
        self.redirect = redirect
        self.retry = retry
        self.cache = cache
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
