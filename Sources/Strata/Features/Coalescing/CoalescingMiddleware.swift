import HTTPTypes

/// Sends one request for identical safe requests in flight at the same moment: a feed
/// screen, a badge and a widget asking for the same `GET /me` make one trip, and each gets
/// the response, parsed by its own endpoint into its own model.
///
/// ```swift
/// let networker = Networker(transport: transport, middleware: [CoalescingMiddleware(), RetryMiddleware()])
/// let me = RequestDescription(route: "https://api.example.com/me")
/// async let profile = networker.send(me, decoding: Profile.self)
/// async let badge = networker.send(me, decoding: Badge.self)
/// let (user, unread) = try await (profile, badge)  // one request reached the server
/// ```
///
/// - **What is identical**: the method (`GET` or `HEAD`, without a body), the target URI as
///   a cache normalises it (``CacheKey``), and the values of ``identityFields``: the
///   fields that change a response (`Accept`, `Accept-Language`, `Range`, the conditional
///   ones) or say whose it is (`Authorization`, `Cookie`), so two users never share a
///   response. When the response's `Vary` names a field in which a joined request differs
///   from the one sent (or is `*`), that caller sends its own request.
/// - **Each caller keeps its own deadline and cancellation**: a caller that gives up leaves
///   the others waiting, and the shared request is cancelled only when no caller is left.
///   The shared request itself runs with no deadline of its own (each caller's bounds its
///   wait), and is logged and observed as the call that sent it.
/// - **Every caller gets the same outcome**: the same head and body bytes, or the same
///   failure. The body is read whole, up to ``maxBodySize`` (past it every caller gets
///   ``MessageBodyError/tooLarge(limit:)``).
/// - **Left alone**: other methods, requests with a body, calls whose body the caller reads
///   as it arrives (``MiddlewareContext/streamsResponseBody``: ``Networker/stream(_:)``,
///   downloads, event streams), and endpoints that say ``Endpoint/coalesces(_:)`` `false`.
///   Made with `onlyWhenAsked: true`, the step coalesces only endpoints that say `true`.
/// - Each call it could coalesce records ``Coalescing`` (``EndpointResponse/coalescing``):
///   ``Coalescing/sent`` or ``Coalescing/joined``.
///
/// Put it first in the client's list, before the steps a shared request should go through
/// once (retries, authentication, the cache). Copies of the step share the requests in
/// flight; two steps made separately coalesce separately.
public struct CoalescingMiddleware: EscapingMiddleware {
    /// The fields whose values make two requests different unless told otherwise:
    /// `Authorization`, `Proxy-Authorization`, `Cookie`, `Accept`, `Accept-Encoding`,
    /// `Accept-Language`, `Range`, `If-None-Match`, `If-Modified-Since`, `If-Match`,
    /// `If-Unmodified-Since`, `If-Range` and `Cache-Control`.
    public static var defaultIdentityFields: [HTTPField.Name] {
        [
            .authorization, .proxyAuthorization, .cookie, .accept, .acceptEncoding, .acceptLanguage, .range,
            .ifNoneMatch, .ifModifiedSince, .ifMatch, .ifUnmodifiedSince, .ifRange, .cacheControl,
        ]
    }
    /// The largest body shared unless told otherwise: 32 MiB, a client's own default.
    public static var defaultMaxBodySize: Int { 32 * 1024 * 1024 }
    /// The callers that may wait for shared requests unless told otherwise: 10,000.
    public static var defaultWaitingLimit: Int { 10_000 }

    /// The fields whose values make two requests different.
    public let identityFields: [HTTPField.Name]
    /// The largest body shared; a larger one fails every caller.
    public let maxBodySize: Int
    /// Whether only endpoints that say ``Endpoint/coalesces(_:)`` `true` are coalesced.
    public let onlyWhenAsked: Bool
    let flights: Flights

    /// Creates the step.
    /// - Parameters:
    ///   - identityFields: the fields whose values make two requests different; add any
    ///     of your own that select a response (a tenant, an API version).
    ///   - maxBodySize: the largest body shared.
    ///   - waitingLimit: the callers that may wait for shared requests at most; past it a
    ///     call sends its own request.
    ///   - onlyWhenAsked: coalesce only endpoints that ask with ``Endpoint/coalesces(_:)``.
    public init(
        identityFields: [HTTPField.Name] = defaultIdentityFields,
        maxBodySize: Int = defaultMaxBodySize,
        waitingLimit: Int = defaultWaitingLimit,
        onlyWhenAsked: Bool = false
    ) {
        self.identityFields = identityFields
        self.maxBodySize = maxBodySize
        self.onlyWhenAsked = onlyWhenAsked
        flights = Flights(waitingLimit: waitingLimit)
    }

    /// Outside a client's chain, passes the request on: a shared request needs a `next` it
    /// may keep.
    public func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        try await next(request, body, context)
    }

    /// Shares an identical request in flight, or sends one others may share; see the type's
    /// documentation.
    public func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        escapingNext next: @escaping MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        guard body == nil, request.method == .get || request.method == .head, !context.streamsResponseBody,
            context.coalesces ?? !onlyWhenAsked, let identity = RequestIdentity(request, fields: identityFields)
        else { return try await next(request, body, context) }
        let (flight, leads) = flights.join(identity)
        if leads {
            var shared = context
            shared.deadline = nil
            flights.start(flight) { [maxBodySize, shared] in
                let (head, body) = try await next(request, nil, shared)
                return Flights.Shared(
                    request: request, head: head, body: try await body?.collect(upTo: maxBodySize) ?? .init())
            }
        }
        let outcome: Flights.Outcome
        do {
            defer { flights.leave(flight) }
            outcome = try await flights.outcome(of: flight, until: context.deadline)
        } catch WaitingLineRefusal.full {
            return try await next(request, body, context)
        }
        let answer = try outcome.get()
        guard leads || !Self.varies(answer, from: request) else { return try await next(request, body, context) }
        context.record(leads ? .sent : .joined, for: CoalescingRecordKey.self)
        return (answer.head, MessageBody(answer.body))
    }

    /// `true`: a caller waits for the shared request under its own deadline, and for
    /// nothing else but `next`.
    public var boundsItsWaits: Bool { true }

    /// Whether the shared response's `Vary` names a field in which `request` differs from
    /// the request that was sent (or is `*`).
    static func varies(_ shared: Flights.Shared, from request: HTTPRequest) -> Bool {
        let varied = shared.head.headerFields[values: .vary].flatMap { $0.split(separator: ",") }
        return varied.contains { field in
            let name = field.trimmingCharacters(in: .whitespaces)
            guard name != "*" else { return true }
            guard let fieldName = HTTPField.Name(name) else { return false }
            return shared.request.headerFields[values: fieldName] != request.headerFields[values: fieldName]
        }
    }
}
