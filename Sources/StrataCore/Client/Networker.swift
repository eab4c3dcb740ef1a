import Foundation
import HTTPTypes
import Logging

/// Loads endpoints: encodes the request, runs it through the middleware to the
/// transport, validates the response and parses it into the endpoint's `Response`.
///
/// Every dependency is injected, so tests swap any part:
///
/// ```swift
/// let networker = Networker(
///     transport: transport,  // AsyncHTTPClientTransport(), URLSessionTransport(), a mock
///     middleware: [HeadersMiddleware([.userAgent: "MyApp/1.0"]), LoggingMiddleware()])
/// let user = try await networker.send(Endpoint(request, model: User.self))
/// ```
///
/// Requests pass through `middleware` in array order and responses in reverse.
///
/// ## The contract
/// - **The client owns the deadline.** ``Configuration/timeout`` (or
///   ``Endpoint/timeout``) bounds the whole call, response body included, on every
///   transport, with one timer per call that is released as soon as the call ends. The
///   timer runs the call in a task of its own, which it abandons at the deadline, so a
///   transport or middleware that ignores cancellation cannot hold the caller. Over a
///   transport that ``Transport/enforcesDeadline`` (AsyncHTTPClient's, URLSession's), with only
///   Strata's own steps, the call runs up to the response head in the caller's task
///   instead, and only a body still streaming is read under the timer.
///   ``Configuration/attemptTimeout`` bounds each pass through the transport up to the
///   response head. A timeout is a ``StrataError/Kind/transport`` failure of kind
///   ``TransportError/Kind/timedOut`` whose ``StrataError/phase`` says where it happened.
/// - **Every stage says what failed.** An error a middleware throws on its own account
///   becomes ``StrataError/Kind/middleware`` naming the middleware's type; a
///   ``StrataError``, ``TransportError``, ``MessageBodyError`` or cancellation from
///   further down passes through each middleware untouched. Anything else a transport
///   throws becomes a ``TransportError`` of kind ``TransportError/Kind/other``.
/// - **A failed response keeps its body** (up to ``Configuration/errorBodyLimit``), so
///   ``StrataError/decodeBody(as:using:)`` turns it into the app's error type, and an
///   error thrown by a parse function stays the value it was
///   (``StrataError/underlying``).
public struct Networker: Sendable {
    /// Settings every request of this client shares; endpoints may override some.
    public struct Configuration: Sendable {
        /// Encodes JSON parameters.
        public var jsonEncoder: JSONEncoder = .strataDefault()
        /// Decodes JSON responses.
        public var jsonDecoder: JSONDecoder = .strataDefault()
        /// How long a whole call may take, response body included; `nil` for no limit.
        /// Enforced by the client on every transport.
        public var timeout: Duration? = .seconds(60)
        /// How long each pass through the transport may wait for the response head;
        /// `nil` for no limit besides ``timeout``.
        public var attemptTimeout: Duration?
        /// The largest response body the client reads into memory.
        public var maxResponseBodySize: Int = 32 * 1024 * 1024
        /// How many bytes of a failed response's body a ``StrataError`` keeps.
        public var errorBodyLimit: Int = StrataError.defaultErrorBodyLimit
        /// Which responses count as success.
        public var validation: ResponseValidation = .default
        /// The logger handed to middleware in ``MiddlewareContext``.
        public var logger = Logger(label: "strata")
        /// Told about every call the client finishes (see ``CallObserver``); none by default.
        public var callObservers: [any CallObserver] = []
        /// Steps the configuration installs outside the client's own middleware, outermost
        /// first: by default the redirect step (see ``redirects``). A step here is left out
        /// when the client's middleware has a step of the same type, placed where the app
        /// wants it.
        public var defaultMiddleware: [any Middleware] = [RedirectMiddleware()]

        /// The defaults: sorted-key JSON, 60 s timeout, 32 MiB bodies, 64 KiB error
        /// bodies, 2xx accepted, redirects followed under ``RedirectPolicy``'s defaults.
        public init() {}
    }

    /// Sends the requests.
    public let transport: any Transport
    /// The steps around the transport, outermost first, as given (the steps of
    /// ``Configuration/defaultMiddleware`` are not listed).
    public let middleware: [any Middleware]
    /// Shared settings.
    public let configuration: Configuration
    /// Work the client's calls left for after them (``MiddlewareContext/afterCall(id:_:)``),
    /// shared by the copies of this client.
    public let background: BackgroundWork
    /// The steps every call passes through, outermost first: the configuration's
    /// ``Configuration/defaultMiddleware`` the client does not replace with its own, then
    /// ``middleware``.
    public let steps: [any Middleware]
    let chain: MiddlewareNext
    /// Whether the transport enforces the deadline and every step bounds its own waits
    /// (``Middleware/boundsItsWaits``): see ``runsInline(_:)``.
    private let stepsBoundTheirWaits: Bool

    /// Creates a client.
    public init(
        transport: any Transport, middleware: [any Middleware] = [], configuration: Configuration = Configuration()
    ) {
        self.transport = transport
        self.middleware = middleware
        self.configuration = configuration
        self.background = BackgroundWork()
        let own = Set(middleware.map { ObjectIdentifier(type(of: $0)) })
        let steps =
            configuration.defaultMiddleware.filter { !own.contains(ObjectIdentifier(type(of: $0))) } + middleware
        self.steps = steps
        self.chain = Pipeline.chain(steps, transport: transport)
        self.stepsBoundTheirWaits = transport.enforcesDeadline && steps.allSatisfy(\.boundsItsWaits)
    }

    /// The first of the client's ``steps`` that is a `Step`, or `nil` when it has none: how
    /// a feature asks whether the client has another (an event stream spends the retry
    /// step's budget; `cacheThenRemote` needs a cache).
    public func installedStep<Step: Middleware>(_ type: Step.Type) -> Step? {
        for step in steps {
            if let step = step as? Step { return step }
        }
        return nil
    }

    /// Loads `endpoint` and returns its parsed response.
    /// - Throws: ``StrataError`` naming the stage that failed.
    public func send<Response>(_ endpoint: Endpoint<Response>) async throws(StrataError) -> Response {
        try await response(for: endpoint).value
    }

    /// Loads `endpoint` and returns the parsed value with the response head, the raw
    /// body and the time it took.
    /// - Throws: ``StrataError`` naming the stage that failed.
    public func response<Response>(for endpoint: Endpoint<Response>) async throws(StrataError) -> EndpointResponse<
        Response
    > {
        let start = ContinuousClock.now
        let context = makeContext(for: endpoint, start: start)
        let loaded: (request: HTTPRequest, head: HTTPResponse, body: Data)
        let value: Response
        do {
            loaded = try await load(
                endpoint.request, jsonEncoder: endpoint.jsonEncoder, validation: endpoint.validation, context: context)
            value = try parse(loaded.body, of: loaded.head, for: loaded.request, with: endpoint)
        } catch {
            throw end(context, failure: error)
        }
        var response = EndpointResponse(
            value: value, request: loaded.request, head: loaded.head, body: loaded.body,
            duration: start.duration(to: .now))
        response.records = try end(context)
        return response
    }

    /// Ends the call `context` belongs to, which succeeded: the work its steps left for
    /// after it goes to ``background``, the call observers are told, and what the steps
    /// recorded comes back. A call that had already ended otherwise (its first ending wins)
    /// ends with that error instead, thrown.
    @discardableResult
    func end(_ context: MiddlewareContext) throws(StrataError) -> CallValues {
        let (records, ending) = close(context, failure: nil)
        if let ending { throw finish(ending, records: records) }
        configuration.callObservers.tell(callEndedWith: nil, records: records)
        return records
    }

    /// Ends the call `context` belongs to, which failed with `failure` (as ``end(_:)``
    /// does), and returns the error it ends with, carrying what the call's steps recorded:
    /// `failure`, or the call's first ending when it had already ended (a timeout that
    /// came before the failure it caused).
    func end(_ context: MiddlewareContext, failure: StrataError) -> StrataError {
        let (records, ending) = close(context, failure: failure)
        return finish(ending ?? failure, records: records)
    }

    /// Tells the observers that the call ended with `error`, and returns it with `records`.
    private func finish(_ error: StrataError, records: CallValues) -> StrataError {
        configuration.callObservers.tell(callEndedWith: error, records: records) ?? error
    }

    /// Ends the call (it finished, or it failed with `failure`), hands the work its steps
    /// left for after it to ``background``, and returns what they recorded and the error
    /// the call ends with, if it did not succeed: its first ending.
    private func close(_ context: MiddlewareContext, failure: StrataError?) -> (
        records: CallValues, ending: StrataError?
    ) {
        let gathered = context.call.update { state in
            let ending = failure.map { state.ended(with: $0) } ?? state.finished().error
            return (state.handOver(), ending)
        }
        for followUp in gathered.0.clientValues[FollowUp.Key.self] ?? [] {
            background.start(id: followUp.id) { [self] in await followUp.work(self) }
        }
        return (gathered.0.records, gathered.1)
    }

    /// Encodes `request`, runs it through the chain, reads its whole body and validates
    /// the response: everything of a call but the parse, which alone depends on the
    /// endpoint's `Response` type.
    private func load(
        _ request: RequestDescription<any URLRouteProvider>,
        jsonEncoder: JSONEncoder?,
        validation: ResponseValidation?,
        context: MiddlewareContext
    ) async throws(StrataError) -> (request: HTTPRequest, head: HTTPResponse, body: Data) {
        let encoded = try encode(request, jsonEncoder: jsonEncoder, for: context)
        let (head, body) = try await buffered(encoded.head, body: encoded.body, context: context)
        try (validation ?? configuration.validation)
            .validate(head, body: body, for: encoded.head, errorBodyLimit: configuration.errorBodyLimit)
        return (encoded.head, head, body)
    }

    /// The endpoint's parse of a validated response; a failure is a ``StrataError`` of
    /// kind ``StrataError/Kind/decoding`` or ``StrataError/Kind/mapping``, by the model
    /// layer that failed.
    package func parse<Response>(
        _ body: Data,
        of head: HTTPResponse,
        for request: HTTPRequest,
        with endpoint: Endpoint<Response>
    ) throws(StrataError) -> Response {
        do {
            return try endpoint.parse(
                RawResponse(head: head, body: body), endpoint.jsonDecoder ?? configuration.jsonDecoder)
        } catch {
            throw StrataError(
                parsing: error, as: Response.self, request: request, response: head, body: body,
                bodyLimit: configuration.errorBodyLimit)
        }
    }

    /// Runs the chain and reads the whole body, within the call's deadline (see
    /// ``Call/buffered(_:body:context:chain:limit:inline:)``).
    package func buffered(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext
    ) async throws(StrataError) -> (HTTPResponse, Data) {
        try await context.call.buffered(
            request, body: body, context: context, chain: chain, limit: configuration.maxResponseBodySize,
            inline: runsInline(context))
    }

    /// Whether the call `context` belongs to runs up to the response head in the caller's
    /// task: the transport enforces the deadline, every step bounds its own waits, and the
    /// call has no attempt timeout (which only the client enforces).
    func runsInline(_ context: MiddlewareContext) -> Bool {
        stepsBoundTheirWaits && context.attemptTimeout == nil
    }

    /// The context for one load of `endpoint` started at `start`.
    func makeContext<Response>(for endpoint: Endpoint<Response>, start: ContinuousClock.Instant) -> MiddlewareContext {
        makeContext(
            deadline: (endpoint.timeout ?? configuration.timeout).map { start + $0 },
            attemptTimeout: endpoint.attemptTimeout ?? configuration.attemptTimeout,
            attributes: endpoint.attributes, options: endpoint.options)
    }

    /// The context of a new call of this client.
    package func makeContext(
        deadline: ContinuousClock.Instant?,
        attemptTimeout: Duration?,
        attributes: [String: String],
        options: CallValues
    ) -> MiddlewareContext {
        MiddlewareContext(
            call: Call(logger: configuration.logger, requestID: Call.nextRequestID(), attributes: attributes),
            deadline: deadline, attemptTimeout: attemptTimeout, attributes: attributes, options: options)
    }

    /// Builds the URL and encodes the parameters of the call `context` belongs to, with
    /// `jsonEncoder` (the configuration's when `nil`).
    func encode(
        _ request: RequestDescription<any URLRouteProvider>,
        jsonEncoder: JSONEncoder?,
        for context: MiddlewareContext
    ) throws(StrataError) -> EncodedRequest {
        context.call.update { $0.encodingStarted() }
        return try encode(request, jsonEncoder: jsonEncoder)
    }

    /// Builds the URL and encodes the parameters of `request`, with `jsonEncoder` (the
    /// configuration's when `nil`).
    package func encode(
        _ request: RequestDescription<any URLRouteProvider>,
        jsonEncoder: JSONEncoder?
    ) throws(StrataError) -> EncodedRequest {
        let url: URL
        do {
            url = try request.route.url()
        } catch {
            throw StrataError(.invalidURL, underlying: error)
        }
        do {
            return try request.encoded(url: url, jsonEncoder: jsonEncoder ?? configuration.jsonEncoder)
        } catch let error as URLRouteError {
            throw StrataError(.invalidURL, underlying: error)
        } catch {
            throw StrataError(.encoding, underlying: error)
        }
    }
}
