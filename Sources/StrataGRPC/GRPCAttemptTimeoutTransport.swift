#if GRPC
    import AsyncAlgorithms
    import GRPCCore
    import Strata

    /// A gRPC client transport that bounds how long each attempt of a call waits for the
    /// server's answer (its response metadata, or its status): the gRPC counterpart of
    /// `Networker.Configuration.attemptTimeout`, so a hung attempt is given up and,
    /// under a ``GRPCRetryInterceptor``, retried while the call's own deadline spans all its
    /// attempts.
    ///
    /// ``GRPCNetworker/init(transport:interceptors:configuration:)`` wraps its transport in
    /// one; the limit is the endpoint's ``GRPCEndpoint/attemptTimeout`` or the client's
    /// ``GRPCNetworker/Configuration/attemptTimeout`` (no limit when neither is set). For a
    /// plain `GRPCClient`, wrap its transport with the ``timeout`` of your choice.
    ///
    /// An attempt with no answer at its limit ends at once with the status `deadlineExceeded`
    /// whose `cause` is a ``GRPCAttemptTimedOut``, and its HTTP/2 stream is reset (the server
    /// sees the call cancelled). ``GRPCNetworker`` reports it as a ``StrataCore/StrataError`` of
    /// kind `StrataError.Kind.transport`, `TransportError.Kind.timedOut`;
    /// ``GRPCRetryInterceptor`` retries it as it retries `unavailable` (the server did not
    /// answer this time). The limit covers the wait for the answer, not a server stream's
    /// messages after it (the call's deadline bounds those), as over HTTP it covers the wait
    /// for the response head.
    ///
    /// Why a transport and not an interceptor: grpc-swift 2.4 runs an interceptor's `next` in
    /// the calling task, which must not be moved to a task a timer could cancel, so an
    /// interceptor cannot give up an attempt; the transport hands the call its response parts
    /// and can end them.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCAttemptTimeoutTransport<Base: ClientTransport>: GRPCWrappingTransport {
        /// The transport's bytes: the wrapped transport's.
        public typealias Bytes = Base.Bytes

        /// The transport that carries the calls.
        public let base: Base
        /// The limit of every attempt not made by a ``GRPCNetworker`` (whose calls carry their
        /// own); `nil` for none.
        public let timeout: Duration?

        /// Wraps `base`.
        /// - Parameters:
        ///   - base: the transport that carries the calls, such as `HTTP2ClientTransport.Posix`.
        ///   - timeout: how long each attempt may wait for the server's answer when the call
        ///     is not a ``GRPCNetworker``'s; `nil` for no limit.
        public init(_ base: Base, timeout: Duration? = nil) {
            self.base = base
            self.timeout = timeout
        }

        /// Opens a stream on the wrapped transport for one attempt, whose answer must come
        /// within the attempt's limit; see the type's documentation.
        public func withStream<T: Sendable>(
            descriptor: MethodDescriptor,
            options: CallOptions,
            _ closure: (_ stream: RPCStream<Inbound, Outbound>, _ context: ClientContext) async throws -> T
        ) async throws -> T {
            let limit = GRPCCallScope.current.map { $0.context.attemptTimeout } ?? timeout
            guard let limit else {
                return try await base.withStream(descriptor: descriptor, options: options, closure)
            }
            return try await base.withStream(descriptor: descriptor, options: options) { stream, context in
                // The attempt reads its response parts from `parts`, which a reader of the
                // stream fills one at a time; the attempt's alarm, an entry in Strata's one
                // deadline scheduler, fails them if nothing came in time.
                let parts = AsyncThrowingChannel<RPCResponsePart<Bytes>, any Error>()
                let answered = Locked(false)
                let alarm = DeadlineAlarm(deadline: .now + limit) {
                    guard !answered.withLock({ $0 }) else { return }
                    parts.fail(
                        RPCError(
                            code: .deadlineExceeded, message: "the attempt timed out after \(limit)",
                            cause: GRPCAttemptTimedOut(limit: limit)))
                }
                defer { alarm.cancel() }
                return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
                    group.addTask {
                        do {
                            var first = true
                            for try await part in stream.inbound {
                                if first {
                                    answered.withLock { $0 = true }
                                    alarm.cancel()
                                    first = false
                                }
                                await parts.send(part)
                            }
                            parts.finish()
                        } catch {
                            parts.fail(error)
                        }
                    }
                    // Ending the attempt (a result or an error) stops the reader; the wrapped
                    // transport then resets a stream still open.
                    defer { group.cancelAll() }
                    return try await closure(
                        RPCStream(
                            descriptor: stream.descriptor, inbound: RPCAsyncSequence(wrapping: parts),
                            outbound: stream.outbound),
                        context)
                }
            }
        }
    }

    /// Why an attempt ended with `deadlineExceeded`: no answer came within its limit
    /// (``GRPCAttemptTimeoutTransport``), before the call's deadline.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCAttemptTimedOut: Error, Hashable, Sendable {
        /// The attempt's limit.
        public let limit: Duration
    }
#endif
