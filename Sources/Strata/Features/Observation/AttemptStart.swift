import HTTPTypes

/// One attempt of a call as it leaves for the transport, worked out once for every step
/// that reports on attempts: ``LoggingMiddleware``, and the spans and metrics of
/// `StrataObservability`'s `TelemetryMiddleware`, read this and the events that follow
/// (``AttemptListener``) rather than each deriving its own.
public struct AttemptStart: Sendable {
    /// The request as it goes to the transport (a tracing step adds its propagation
    /// fields here).
    public var request: HTTPRequest
    /// The request body's length, when known.
    public let requestBodyLength: Int64?
    /// The attempt number (see ``MiddlewareContext/attempt``), 1 for the first.
    public let attempt: Int
    /// How long the retry step waited before this attempt; `nil` on the first.
    public let retryWait: Duration?
    /// The redirect this attempt follows, if it is a redirect's hop.
    public let redirect: RedirectHop?
    /// When the attempt started.
    public let startedAt: ContinuousClock.Instant

    /// The start of an attempt sending `request` with `body` in `context`, now.
    public init(_ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext) {
        self.request = request
        requestBodyLength = body?.length
        attempt = context.attempt
        retryWait = context.attempt > 1 ? context.retryWait : nil
        redirect = context.redirect
        startedAt = .now
    }

    /// How many times the request was sent before: retries and redirect hops
    /// (`http.request.resend_count`).
    public var resendCount: Int { max(attempt - 1, 0) + (redirect?.number ?? 0) }
}

/// An attempt's response head as it arrived: told to each ``AttemptListener``.
public struct AttemptHead: Sendable {
    /// The response head.
    public let response: HTTPResponse
    /// The length of its body, when known; `nil` also when it has none.
    public let bodyLength: Int64?
    /// From the attempt's start to the head's arrival.
    public let duration: Duration
    /// The HTTP version the transport spoke (``AttemptReport/protocolVersion``).
    public let protocolVersion: String?
}

/// How an attempt ended: told once to each ``AttemptListener``.
public struct AttemptEnd: Sendable {
    /// The response head, when one arrived.
    public let response: HTTPResponse?
    /// How many bytes of the response body were read.
    public let responseBodyBytes: Int64
    /// From the attempt's start to its end (the end of its response body, or its failure).
    public let duration: Duration
    /// What the attempt failed with, sending or while its body was read; `nil` when it
    /// succeeded, also when its body was dropped unread.
    public let error: (any Error)?
    /// The HTTP version the transport spoke (``AttemptReport/protocolVersion``).
    public let protocolVersion: String?
}

/// Told what happens to one attempt after its ``AttemptStart``: its response head, then
/// its end, exactly once, whoever ends it (the body's reader, a failure, or the body
/// being dropped). See ``MiddlewareContext/observeAttempt(_:body:listeners:next:)``.
public protocol AttemptListener: Sendable {
    /// The response head arrived.
    func headReceived(_ head: AttemptHead)
    /// The attempt ended.
    func attemptEnded(_ end: AttemptEnd)
}
