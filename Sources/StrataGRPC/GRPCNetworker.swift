#if GRPC
    import Foundation
    import GRPCCore
    import GRPCNIOTransportHTTP2
    import HTTPTypes
    import Logging
    import Strata

    /// Makes gRPC calls described by `RequestDescription<GRPCRoute>` and reads their response
    /// messages through Strata's model layers, failing with ``StrataCore/StrataError``: the gRPC
    /// counterpart of `Networker`, over a grpc-swift `GRPCClient`.
    ///
    /// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests makes these calls) -->
    /// ```swift
    /// let transport = try HTTP2ClientTransport.Posix(
    ///     target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext)
    /// let networker = GRPCNetworker(transport: transport)
    /// let connections = Task { try await networker.runConnections() }
    /// let request = try RequestDescription(
    ///     route: GRPCRoute(Strata_Demo_V1_UserService.Method.GetUser.descriptor),
    ///     message: Strata_Demo_V1_GetUserRequest.with { $0.id = 1 })
    /// let user = try await networker.send(GRPCEndpoint(request, decoding: User.self))
    /// networker.beginGracefulShutdown()
    /// ```
    ///
    /// ## The contract
    /// - **The client owns the deadline.** ``Configuration/timeout`` (or
    ///   ``GRPCEndpoint/timeout``) bounds the whole call, a server stream included: it is the
    ///   call's gRPC deadline, sent to the server as `grpc-timeout` and enforced by the client,
    ///   so a handler that never answers fails at the deadline as a
    ///   `StrataError.Kind.transport` failure of kind
    ///   `TransportError.Kind.timedOut`.
    /// - **Cancellation** of the calling task (or of the `LoadTask`, or ending the
    ///   iteration of a ``GRPCResponseStream``) cancels the call: `StrataError.Kind.cancelled`.
    /// - **Every status says what failed**: see ``StrataCore/StrataError/Kind/grpcStatus`` and
    ///   ``StrataCore/StrataError/grpcStatus``; `deadlineExceeded` is a timeout and `unavailable`
    ///   a connection failure, as over HTTP.
    /// - **A malformed message** is `StrataError.Kind.decoding` with a
    ///   `MappingError`; a DTO the app model refuses is `StrataError.Kind.mapping`.
    ///
    /// ## Policies
    /// Strata's policies are grpc-swift `ClientInterceptor`s given to the client
    /// (``init(transport:interceptors:configuration:)``), driving the same decisions as the
    /// HTTP middleware: ``GRPCRetryInterceptor``, ``GRPCCircuitBreakerInterceptor``,
    /// ``GRPCAuthenticationInterceptor``. Each call has a `MiddlewareContext` of its
    /// own (its deadline, ``Configuration/logger``, the endpoint's ``GRPCEndpoint/options``
    /// and ``GRPCEndpoint/retry``) that those interceptors share across its attempts; what
    /// they record (the retry summary, breaker changes, refreshes) is on the response's
    /// ``GRPCResponse/records`` or the error's `StrataError.records`.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCNetworker: Sendable {
        /// Settings every call of this client shares; endpoints may override some.
        public struct Configuration: Sendable {
            /// How long a whole call may take (a server stream until its last message); `nil`
            /// for no limit.
            public var timeout: Duration? = .seconds(60)
            /// How long each attempt may wait for the server's answer (its response metadata
            /// or status); `nil` for no limit besides ``timeout``. Enforced by the
            /// ``GRPCAttemptTimeoutTransport`` that ``GRPCNetworker/init(transport:interceptors:configuration:)``
            /// wraps its transport in.
            public var attemptTimeout: Duration?
            /// The largest response message the client accepts; `nil` for grpc-swift's default
            /// (4 MiB).
            public var maxResponseMessageBytes: Int?
            /// How grpc-swift executes every call (its retry executor, say); `nil` for one
            /// attempt a call. ``GRPCNetworker/init(transport:interceptors:configuration:)``
            /// sets it, when `nil`, to ``GRPCNetworker/executionPolicy(for:)`` of its
            /// interceptors.
            public var executionPolicy: RPCExecutionPolicy?
            /// The most request messages a client-streaming or bidirectional call may have sent
            /// and still be sent again (by ``GRPCRetryInterceptor`` or
            /// ``GRPCAuthenticationInterceptor``): its messages are replayed from a buffer that
            /// holds this many. A call that sent more before it failed is not retried, and its
            /// `RetrySummary` says `bodyNotReplayable`. At most ``replayBufferCapacity``
            /// (a larger value counts as that); 0 retries no streamed request.
            public var maxReplayedMessages = Configuration.replayBufferCapacity
            /// The logger of every call's `MiddlewareContext`, which Strata's
            /// interceptors log on.
            public var logger = Logger(label: "strata.grpc")
            /// Told about every call the client finishes, as a `Networker`'s observers are
            /// (`FinishedCall`: what Strata's interceptors recorded, and the error, whose
            /// ``StrataCore/StrataError/grpcStatus`` is the call's status when the server
            /// ended it with one); none by default. A streaming call ends with its stream.
            public var callObservers: [any CallObserver] = []

            /// The defaults: a 60 s timeout, grpc-swift's message size limit, 64 replayed messages.
            public init() {}

            /// The messages grpc-swift's retry executor keeps of a streamed request for sending
            /// it again: 64, fixed by grpc-swift.
            public static var replayBufferCapacity: Int { 64 }
        }

        /// Shared settings.
        public let configuration: Configuration
        private let calls: any GRPCCalls
        /// The refusals of the ``GRPCTrust`` the transport was made with, so that a refused
        /// server's error says why (a pin mismatch, with the pins the server showed).
        private let trustRefusals: GRPCTrustRefusals?

        /// Creates a client over a `GRPCClient` the app made and runs (its interceptors are
        /// the ones it was given).
        public init<Transport: ClientTransport>(
            client: GRPCClient<Transport>, configuration: Configuration = Configuration()
        ) {
            self.calls = client
            self.configuration = configuration
            self.trustRefusals = nil
        }

        /// Creates a client over an `HTTP2ClientTransport.Posix` to `host` over TLS, trusting
        /// the server as `trust` says for that host (see ``GRPCTrust``); call
        /// ``runConnections()`` to connect.
        /// - Parameters:
        ///   - host: the server's host name or address, which its certificate must name.
        ///   - port: the server's port.
        ///   - trust: whom the client trusts, per host; the policy of `host` applies.
        ///   - transportConfig: the transport's settings.
        ///   - interceptors: as ``init(transport:interceptors:configuration:)``.
        ///   - configuration: the shared settings.
        /// - Throws: `TrustConfigurationError` for a setting the transport cannot
        ///   apply; grpc-swift's `RuntimeError` when the transport cannot be made.
        public init(
            host: String,
            port: Int,
            trust: ServerTrust,
            transportConfig: HTTP2ClientTransport.Posix.Config = .defaults,
            interceptors: [any ClientInterceptor] = [],
            configuration: Configuration = Configuration()
        ) throws {
            let grpcTrust = try GRPCTrust(trust, host: host)
            // An address is no server name to send (SNI): swift-nio-ssl then checks the
            // certificate against the address connected to.
            let target: any ResolvableTarget =
                if GRPCTrust.isAddress(host) {
                    host.contains(":") ? .ipv6(address: host, port: port) : .ipv4(address: host, port: port)
                } else {
                    .dns(host: host, port: port)
                }
            let transport = try HTTP2ClientTransport.Posix(
                target: target, transportSecurity: grpcTrust.transportSecurity, config: transportConfig)
            self.init(transport: transport, interceptors: interceptors, configuration: configuration)
            self = GRPCNetworker(self, trustRefusals: grpcTrust.refusals)
        }

        private init(_ networker: GRPCNetworker, trustRefusals: GRPCTrustRefusals) {
            self.calls = networker.calls
            self.configuration = networker.configuration
            self.trustRefusals = trustRefusals
        }

        /// The error for `error`, thrown by the call whose head was `head`: an encoding
        /// failure of a streamed request's message when there was one (gRPC cancels the
        /// call for it), else the error as ``GRPCErrors`` reads it.
        func strataError(
            _ error: any Error, head: HTTPRequest, phase: StrataError.Phase, streamed: GRPCStreamedRequest? = nil
        ) -> StrataError {
            if let failure = streamed?.encodingFailure {
                return StrataError(.encoding, underlying: failure.underlying, request: head)
            }
            return GRPCErrors.strataError(error, request: head, phase: phase, trustRefusal: trustRefusals?.latest)
        }

        /// Creates a client over `transport`, with its own `GRPCClient`; call
        /// ``runConnections()`` (in a task of its own) to connect. The transport is wrapped in
        /// a ``GRPCAttemptTimeoutTransport``, for ``Configuration/attemptTimeout`` and
        /// ``GRPCEndpoint/attemptTimeout``.
        /// - Parameters:
        ///   - transport: the gRPC transport, such as `HTTP2ClientTransport.Posix`.
        ///   - interceptors: grpc-swift interceptors every call passes through, first is
        ///     outermost: where Strata's policies (retry, circuit breaker, credential refresh)
        ///     plug in.
        ///   - configuration: the shared settings.
        public init<Transport: ClientTransport>(
            transport: Transport,
            interceptors: [any ClientInterceptor] = [],
            configuration: Configuration = Configuration()
        ) {
            var configuration = configuration
            if configuration.executionPolicy == nil {
                configuration.executionPolicy = Self.executionPolicy(for: interceptors)
            }
            self.init(
                client: GRPCClient(transport: GRPCAttemptTimeoutTransport(transport), interceptors: interceptors),
                configuration: configuration)
        }

        /// The grpc-swift execution policy Strata's interceptors among `interceptors` need:
        /// grpc-swift's retry executor for the status codes after which they may have a call
        /// sent again (every code for ``GRPCRetryInterceptor``, whose endpoints' rules may retry
        /// any; `unauthenticated` for ``GRPCAuthenticationInterceptor``), at most ``GRPCRetryInterceptor/maxAttempts``
        /// attempts; `nil` when none of them sends calls again. The interceptors decide whether
        /// and when (the executor obeys their pushback); give it to a plain `GRPCClient`'s calls
        /// as `CallOptions.executionPolicy`.
        public static func executionPolicy(for interceptors: [any ClientInterceptor]) -> RPCExecutionPolicy? {
            let codes = interceptors.reduce(into: Set<Status.Code>()) { codes, interceptor in
                guard let resending = interceptor as? any GRPCResendingInterceptor else { return }
                codes.formUnion(resending.resentCodes.compactMap { Status.Code($0) })
            }
            guard !codes.isEmpty else { return nil }
            return .retry(
                GRPCCore.RetryPolicy(
                    maxAttempts: GRPCRetryInterceptor.maxAttempts, initialBackoff: .milliseconds(100),
                    maxBackoff: .seconds(10), backoffMultiplier: 2, retryableStatusCodes: codes))
        }

        /// Runs the client's connections until ``beginGracefulShutdown()`` and the end of the
        /// calls in flight (cancel the task running it to stop at once). Call it once.
        /// - Throws: grpc-swift's `RuntimeError` when the client already ran or the transport failed.
        public func runConnections() async throws {
            try await calls.runConnections()
        }

        /// Stops accepting calls and lets the ones in flight finish.
        public func beginGracefulShutdown() {
            calls.beginGracefulShutdown()
        }

        /// Makes the unary call `endpoint` describes and returns its parsed response.
        /// - Throws: ``StrataCore/StrataError`` naming the stage that failed.
        public func send<Response>(_ endpoint: GRPCEndpoint<Response>) async throws(StrataError) -> Response {
            try await response(for: endpoint).value
        }

        /// Makes the unary call `endpoint` describes and returns the parsed value with the
        /// metadata that came with it and the time it took.
        /// - Throws: ``StrataCore/StrataError`` naming the stage that failed.
        public func response<Response>(for endpoint: GRPCEndpoint<Response>) async throws(StrataError) -> GRPCResponse<
            Response
        > {
            let (request, head, options) = try prepare(endpoint)
            return try await oneResponse(endpoint, head: head, options: options) { calls, options in
                try await calls.unary(
                    request: request, descriptor: endpoint.request.route.method,
                    serializer: RawBytesSerializer(), deserializer: RawBytesDeserializer(), options: options,
                    onResponse: Self.contents)
            }
        }

        /// Runs a call that answers one message (unary or client streaming) with `perform`,
        /// under the endpoint's policy scope, and parses the message.
        func oneResponse<Response>(
            _ endpoint: GRPCEndpoint<Response>, head: HTTPRequest, options: CallOptions,
            streamed: GRPCStreamedRequest? = nil,
            perform: (any GRPCCalls, CallOptions) async throws -> (
                metadata: Metadata, message: Data, trailing: Metadata
            )
        ) async throws(StrataError) -> GRPCResponse<Response> {
            let start = ContinuousClock.now
            let scope = scope(for: endpoint, head: head, options: options, streamed: streamed)
            let received: (metadata: Metadata, message: Data, trailing: Metadata)
            let value: Response
            do throws(StrataError) {
                do {
                    received = try await GRPCCallScope.$current.withValue(scope) { try await perform(calls, options) }
                } catch {
                    throw strataError(error, head: head, phase: .awaitingHead, streamed: streamed)
                }
                value = try Self.parse(received.message, with: endpoint, head: head)
            } catch {
                throw end(scope, failure: error)
            }
            return GRPCResponse(
                value: value, route: endpoint.request.route, metadata: received.metadata,
                trailingMetadata: received.trailing, duration: start.duration(to: .now), records: end(scope))
        }

        /// The metadata, message and trailing metadata of a call's one response.
        @Sendable static func contents(of response: ClientResponse<Data>) throws -> (
            metadata: Metadata, message: Data, trailing: Metadata
        ) {
            let contents = try response.accepted.get()
            return (contents.metadata, try contents.message.get(), contents.trailingMetadata)
        }

        /// Makes the unary call `endpoint` describes and calls `completion` with the result,
        /// for callback-based code, as `Networker.load(_:completion:)` does.
        ///
        /// `completion` runs once, on a background task, not on the main thread.
        /// - Returns: a handle whose `LoadTask.cancel()` cancels the call.
        @discardableResult
        public func load<Response>(
            _ endpoint: GRPCEndpoint<Response>,
            completion: @escaping @Sendable (Result<Response, StrataError>) -> Void
        ) -> LoadTask {
            LoadTask(
                Task {
                    do throws(StrataError) {
                        completion(.success(try await send(endpoint)))
                    } catch {
                        completion(.failure(error))
                    }
                })
        }

        /// Makes the server-streaming call `endpoint` describes: its messages, each read
        /// through `endpoint`'s parse function, as they arrive.
        ///
        /// The call starts at once and ends with the stream: a failure (a status, the deadline,
        /// a malformed message) ends the iteration with that ``StrataCore/StrataError``, and
        /// cancelling the iterating task, or dropping the stream unfinished, cancels the call.
        /// The stream is read at the iteration's pace: each message is taken from the
        /// transport and parsed when the iteration asks for it, in the iterating task, so no
        /// parsed message waits and a slow reader holds the server back through HTTP/2 flow
        /// control, however long the stream. The transport reads ahead of that on its own, up
        /// to its HTTP/2 window and its buffers: with `HTTP2ClientTransport.Posix`'s default
        /// 8 MiB window, most of a 125 MiB stream before the server was held back (measured);
        /// a 64 KiB window held it to 1–10 MiB. Set the transport's
        /// `config.http2.targetWindowSize` to bound it.
        public func stream<Response: Sendable>(_ endpoint: GRPCEndpoint<Response>) -> GRPCResponseStream<Response> {
            stream(endpoint) { handoff, heads throws(StrataError) in
                let (request, head, options) = try prepare(endpoint)
                try await streamedResponse(endpoint, head: head, options: options, handoff: handoff, heads: heads) {
                    calls, options, handle in
                    try await calls.serverStreaming(
                        request: request, descriptor: endpoint.request.route.method,
                        serializer: RawBytesSerializer(), deserializer: RawBytesDeserializer(), options: options,
                        onResponse: handle)
                }
            }
        }

        /// A stream of the messages of the call `run` makes, parsed by `endpoint`, run in a
        /// task of its own that the stream cancels when it is cancelled or dropped; `run`
        /// lends the response's parts to the stream through its handoff.
        func stream<Response: Sendable>(
            _ endpoint: GRPCEndpoint<Response>,
            _ run:
                @escaping @Sendable (_ handoff: GRPCPartsHandoff, _ heads: GRPCStreamHeads) async throws(StrataError) ->
                Void
        ) -> GRPCResponseStream<Response> {
            let handoff = GRPCPartsHandoff()
            let heads = GRPCStreamHeads()
            let task = Task {
                do throws(StrataError) {
                    try await run(handoff, heads)
                    handoff.end(nil)
                } catch {
                    handoff.end(error)
                }
            }
            let head = endpoint.request.head
            return GRPCResponseStream(
                handoff, parse: endpoint.parse, call: GRPCStreamCall(task, head: head, heads: heads))
        }

        /// Runs a call whose response is a stream (server streaming or bidirectional) with
        /// `perform`, under the endpoint's policy scope, lending the response's parts to the
        /// stream's reader through `handoff` until it has read them.
        func streamedResponse<Response: Sendable>(
            _ endpoint: GRPCEndpoint<Response>, head: HTTPRequest, options: CallOptions,
            streamed: GRPCStreamedRequest? = nil,
            handoff: GRPCPartsHandoff,
            heads: GRPCStreamHeads,
            perform: (
                any GRPCCalls, CallOptions, @escaping @Sendable (StreamingClientResponse<Data>) async throws -> Void
            ) async throws -> Void
        ) async throws(StrataError) {
            let scope = scope(for: endpoint, head: head, options: options, streamed: streamed)
            do {
                try await GRPCCallScope.$current.withValue(scope) {
                    try await perform(calls, options) { response in
                        let contents = try response.accepted.get()
                        heads.metadata = contents.metadata
                        try await handoff.lend(contents.bodyParts)
                    }
                }
            } catch {
                throw end(scope, failure: strataError(error, head: head, phase: heads.phase, streamed: streamed))
            }
            end(scope)
        }

        /// Ends the call `scope` belongs to, which succeeded: the observers are told, and what
        /// Strata's interceptors recorded comes back.
        @discardableResult
        private func end(_ scope: GRPCCallScope) -> CallValues {
            let records = scope.context.records
            configuration.callObservers.tell(callEndedWith: nil, records: records)
            return records
        }

        /// Ends the call `scope` belongs to, which failed with `failure`: the observers are
        /// told, and the error comes back carrying what the interceptors recorded.
        private func end(_ scope: GRPCCallScope, failure: StrataError) -> StrataError {
            configuration.callObservers.tell(callEndedWith: failure, records: scope.context.records) ?? failure
        }

        /// The call's request (message bytes and metadata), its head for errors, and its options.
        private func prepare<Response>(_ endpoint: GRPCEndpoint<Response>) throws(StrataError) -> (
            ClientRequest<[UInt8]>, HTTPRequest, CallOptions
        ) {
            let (metadata, head, options) = try prepareCall(endpoint)
            guard let bytes = endpoint.request.messageBytes else {
                throw StrataError(
                    .encoding,
                    underlying: MappingError(
                        type: RequestDescription<GRPCRoute>.self,
                        description: "a gRPC request's body is one message: give it as .data"),
                    request: head)
            }
            return (ClientRequest(message: bytes, metadata: metadata), head, options)
        }

        /// The call's metadata, its head for errors, and its options: what every kind of call
        /// needs (a unary or server-streaming call also has its one request message).
        func prepareCall<Response>(_ endpoint: GRPCEndpoint<Response>) throws(StrataError) -> (
            Metadata, HTTPRequest, CallOptions
        ) {
            let description = endpoint.request
            let head = description.head
            let metadata: Metadata
            do {
                metadata = try description.metadata()
            } catch {
                throw StrataError(.encoding, underlying: error, request: head)
            }
            var options = CallOptions.defaults
            options.timeout = endpoint.timeout ?? configuration.timeout
            if let limit = configuration.maxResponseMessageBytes { options.maxResponseMessageBytes = limit }
            options.executionPolicy = configuration.executionPolicy
            return (metadata, head, options)
        }

        /// The call's policy scope: its deadline (from `options`' timeout), its attempts'
        /// limit, the client's logger, the endpoint's values and retry rule, and its streamed
        /// request's messages, if it has some.
        func scope<Response>(
            for endpoint: GRPCEndpoint<Response>, head: HTTPRequest, options: CallOptions,
            streamed: GRPCStreamedRequest? = nil
        ) -> GRPCCallScope {
            var context = MiddlewareContext(
                deadline: options.timeout.map { ContinuousClock.now + $0 },
                attemptTimeout: endpoint.attemptTimeout ?? configuration.attemptTimeout, logger: configuration.logger,
                options: endpoint.options)
            if let rule = endpoint.retry { context.retry = rule }
            return GRPCCallScope(context: context, head: head, spansAttempts: true, streamed: streamed)
        }

        /// Parses one message with `endpoint`'s parse function, as a ``StrataCore/StrataError``.
        private static func parse<Response>(
            _ bytes: Data, with endpoint: GRPCEndpoint<Response>, head: HTTPRequest
        ) throws(StrataError) -> Response {
            try parse(bytes, parse: endpoint.parse, head: head)
        }

        /// Parses one message, turning a failure into ``StrataCore/StrataError/Kind/decoding`` or
        /// ``StrataCore/StrataError/Kind/mapping`` (by the ``StrataCore/MappingError/layer``).
        static func parse<Response>(
            _ bytes: Data, parse: (Data) throws -> Response, head: HTTPRequest
        ) throws(StrataError) -> Response {
            do {
                return try parse(bytes)
            } catch {
                throw StrataError(parsing: error, as: Response.self, request: head, body: bytes)
            }
        }
    }

    /// The parsed messages of a server-streaming or bidirectional call
    /// (``GRPCNetworker/stream(_:)``, ``GRPCNetworker/stream(_:messages:)``), in order, each
    /// taken from the transport and parsed when the iteration asks for it; a failure ends
    /// the iteration with a ``StrataCore/StrataError``. Iterate it once.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCResponseStream<Element: Sendable>: AsyncSequence, Sendable {
        /// Every failure is a ``StrataCore/StrataError``.
        public typealias Failure = StrataError

        private let handoff: GRPCPartsHandoff
        private let parse: @Sendable (Data) throws -> Element
        private let call: GRPCStreamCall

        init(_ handoff: GRPCPartsHandoff, parse: @escaping @Sendable (Data) throws -> Element, call: GRPCStreamCall) {
            self.handoff = handoff
            self.parse = parse
            self.call = call
        }

        /// The metadata the server sent with its response head: `nil` until it arrived
        /// (with the first message, or before it).
        public var metadata: Metadata? { call.heads.metadata }

        /// The metadata the server ended the stream with: `nil` until the stream ended
        /// normally (a failure's status and metadata are in its ``StrataCore/StrataError``).
        public var trailingMetadata: Metadata? { call.heads.trailingMetadata }

        /// Iterates the messages.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(stream: self)
        }

        /// Reads the messages one at a time.
        public struct AsyncIterator: AsyncIteratorProtocol {
            private let stream: GRPCResponseStream
            /// The response's parts, once the call lent them.
            private var parts: GRPCPartsHandoff.Parts.AsyncIterator?
            private var ended = false

            init(stream: GRPCResponseStream) {
                self.stream = stream
            }

            /// The next message, or `nil` after the last one.
            /// - Throws: ``StrataCore/StrataError`` when the call failed or the iterating task was
            ///   cancelled (`StrataError.Kind.cancelled`).
            public mutating func next() async throws(StrataError) -> Element? {
                guard !ended else { return nil }
                let call = stream.call
                do {
                    return try await withTaskCancellationHandler {
                        try await nextMessage()
                    } onCancel: {
                        call.cancel()
                    }
                } catch {
                    ended = true
                    throw GRPCErrors.strataError(error, request: call.head, phase: call.heads.phase)
                }
            }

            /// Reads parts up to the next message and parses it, or ends the reading.
            private mutating func nextMessage() async throws -> Element? {
                // Borrowed on the first read (a call that ended without a response lends none,
                // and the reading ends at once).
                if parts == nil { parts = await stream.handoff.borrow()?.makeAsyncIterator() }
                while parts != nil {
                    let part: GRPCPartsHandoff.Parts.Element?
                    do {
                        part = try await parts!.next()
                    } catch {
                        return try await finish(error)
                    }
                    switch part {
                    case .message(let bytes):
                        do {
                            return try GRPCNetworker.parse(bytes, parse: stream.parse, head: stream.call.head)
                        } catch {
                            return try await finish(error)
                        }
                    case .trailingMetadata(let trailing):
                        stream.call.heads.trailingMetadata = trailing
                    case nil:
                        return try await finish(nil)
                    }
                }
                return try await finish(nil)
            }

            /// Gives the parts back (read to their end, or to `failure`) and ends the
            /// iteration as the call ended.
            private mutating func finish(_ failure: (any Error)?) async throws -> Element? {
                ended = true
                parts = nil
                stream.handoff.giveBack(failure)
                if let error = await stream.handoff.result() { throw error }
                if let failure { throw failure }
                if Task.isCancelled { throw CancellationError() }
                return nil
            }
        }
    }

    /// The task running a streamed call: cancelled when its stream is cancelled or goes
    /// away, so no call outlives its reader.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    final class GRPCStreamCall: Sendable {
        private let task: Task<Void, Never>
        /// The call's head, for the errors of its reader.
        let head: HTTPRequest
        /// The response's metadata and trailing metadata, as they arrive.
        let heads: GRPCStreamHeads

        init(_ task: Task<Void, Never>, head: HTTPRequest, heads: GRPCStreamHeads) {
            self.task = task
            self.head = head
            self.heads = heads
        }

        func cancel() {
            task.cancel()
        }

        deinit {
            task.cancel()
        }
    }

    /// The metadata of a streamed response, recorded by the call's task as it arrives and
    /// read by its stream.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    final class GRPCStreamHeads: Sendable {
        private let state = Locked<(metadata: Metadata?, trailing: Metadata?)>((nil, nil))

        var metadata: Metadata? {
            get { state.withLock { $0.metadata } }
            set { state.withLock { $0.metadata = newValue } }
        }

        var trailingMetadata: Metadata? {
            get { state.withLock { $0.trailing } }
            set { state.withLock { $0.trailing = newValue } }
        }

        /// The phase the call reached: reading its messages once the response's metadata
        /// came, waiting for it before.
        var phase: StrataError.Phase { metadata == nil ? .awaitingHead : .readingBody }
    }
#endif
