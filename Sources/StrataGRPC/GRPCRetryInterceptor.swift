#if GRPC
    import Foundation
    import GRPCCore
    import HTTPTypes
    import Strata

    /// Retries gRPC calls under Strata's `RetryPolicy` and `RetryBudget`: the
    /// same decisions `RetryMiddleware` takes over HTTP, made by the same code.
    ///
    /// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests makes these calls) -->
    /// ```swift
    /// let budget = RetryBudget()   // the HTTP client's, to share one budget
    /// let retry = GRPCRetryInterceptor(
    ///     policy: RetryPolicy(maxAttempts: 3), budget: budget,
    ///     idempotentMethods: [Strata_Demo_V1_UserService.Method.GetUser.descriptor])
    /// let networker = GRPCNetworker(transport: transport, interceptors: [retry])
    /// ```
    ///
    /// ## What is retried
    /// A call is retried when its status is one of ``retryableCodes`` (`unavailable` unless
    /// told otherwise; add `resourceExhausted` or `aborted` when the server means "try again";
    /// an attempt given up by its ``GRPCAttemptTimeoutTransport`` limit counts as `unavailable`)
    /// and its method may be sent twice: one of ``idempotentMethods``, or a call whose
    /// endpoint says so (``GRPCEndpoint/retry(_:)`` with `RetryRule.withIdempotencyKey`,
    /// or a `RetryRule.custom(_:)` decision, which sees the status as the attempt's
    /// error; `RetryRule.never` retries nothing). A server's `grpc-retry-pushback-ms`
    /// is its `Retry-After`: the wait it asks for, or (negative) no retry. A call a circuit
    /// breaker refused is not retried. Retrying stops, as over HTTP, when the attempts are used
    /// up, the wait would end after the call's deadline, the budget has no retry left, or the
    /// call is cancelled; the `RetrySummary` is on ``GRPCResponse/retry`` and
    /// `StrataError.retry`.
    ///
    /// ## How the call is sent again
    /// grpc-swift 2 runs interceptors once per attempt, inside the attempt's HTTP/2 stream, so
    /// an interceptor cannot send a call again itself. Its retry executor can: it opens a new
    /// stream per attempt, replays the request message, and obeys the pushback metadata of a
    /// rejected attempt. This interceptor decides with `RetryPolicy` and tells the
    /// executor its decision as that pushback (the wait, or `-1` to stop). ``GRPCNetworker``
    /// turns the executor on (`CallOptions.executionPolicy`) for every status code (an
    /// endpoint's custom rule may retry any; the pushback stops the rest); on a plain `GRPCClient`, set ``GRPCNetworker/executionPolicy(for:)`` on the
    /// call's options. grpc-swift caps a call at 5 attempts, so a policy's
    /// `RetryPolicy.maxAttempts` above 5 counts as 5. Unary and server-streaming
    /// calls are replayable (their one request message); a client-streaming or bidirectional
    /// call is while it sent no more messages than
    /// ``GRPCNetworker/Configuration/maxReplayedMessages`` (beyond, its summary says
    /// `bodyNotReplayable`). As gRPC defines it, a call is retried only before the server's
    /// first response: a stream that delivered a message is never sent again.
    ///
    /// ## Why Strata's budget replaces grpc-swift's retry throttling
    /// gRPC's retry throttling (`ServiceConfig.RetryThrottle`) and `RetryBudget` are
    /// the same idea — a token bucket that retries take from and that fills with successful
    /// traffic, so a failing server does not see its load multiplied — counted differently:
    /// gRPC takes a token per failure and gives back a fraction per success, Strata gives a
    /// fraction per call and a trickle per second. Keeping one of them keeps one answer to
    /// "may this client retry now", and Strata's can be shared: pass the same
    /// `RetryBudget` to an HTTP client's `RetryMiddleware` and to this
    /// interceptor, and HTTP and gRPC calls to the same backend draw on one budget. Leave the
    /// transport's service config without a retry throttle; if it has one, both apply and the
    /// stricter wins.
    ///
    /// Copies share their budget. Retries are logged at debug level as over HTTP
    /// (`retry`, `retry stopped`).
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCRetryInterceptor: ClientInterceptor {
        /// The most attempts grpc-swift's retry executor makes of one call.
        public static var maxAttempts: Int { 5 }

        /// When and how to retry: attempts and backoff (its HTTP methods, statuses and
        /// transport failures do not apply to gRPC).
        public let policy: Strata.RetryPolicy
        /// The retries its clients may make; `nil` for no limit besides the policy's.
        public let budget: RetryBudget?
        /// The status codes that are retried.
        public let retryableCodes: Set<RPCError.Code>
        /// The methods that may be sent twice whatever their endpoint says.
        public let idempotentMethods: Set<MethodDescriptor>
        private let identity = Identity()
        private let sleep: @Sendable (Duration) async throws -> Void

        /// Creates the interceptor.
        /// - Parameters:
        ///   - policy: when and how to retry (at most ``maxAttempts`` attempts).
        ///   - budget: the retries its clients may make, shared by all their calls; by default
        ///     a `RetryBudget` of its own.
        ///   - retryableCodes: the status codes retried; `unavailable` by default.
        ///   - idempotentMethods: the methods retried whatever their endpoint says; others only
        ///     when their endpoint is marked (``GRPCEndpoint/retry(_:)``).
        public init(
            policy: Strata.RetryPolicy = Strata.RetryPolicy(),
            budget: RetryBudget? = RetryBudget(),
            retryableCodes: Set<RPCError.Code> = [.unavailable],
            idempotentMethods: Set<MethodDescriptor> = []
        ) {
            self.policy = policy
            self.budget = budget
            self.retryableCodes = retryableCodes
            self.idempotentMethods = idempotentMethods
            // grpc-swift's executor waits (the pushback this interceptor sets); the run only
            // counts the attempt.
            self.sleep = { _ in }
        }

        /// Runs one attempt and, when it is rejected, decides whether the call is sent again
        /// and after how long; see the type's documentation.
        public func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            let scope = GRPCCallScope.forAttempt(request: request.metadata)
            let owner = ObjectIdentifier(identity)
            // A networker's call keeps its run in its scope from one attempt to the next (the
            // attempts come one after the other); a plain client's attempt makes one.
            var run: RetryRun? =
                scope.spansAttempts ? scope.take(owner, as: RetryRun.self) ?? makeRun(scope.context) : nil
            run?.attemptStarting()
            defer { if let run { scope.put(owner, run) } }
            let response = try await next(request, context)
            let error: RPCError? = if case .failure(let error) = response.accepted { error } else { nil }
            if let error, error.metadata[stringValues: GRPCMetadataKeys.resend].contains(where: { _ in true }) {
                return response
            }
            if run == nil {
                var attemptContext = scope.context
                attemptContext.attempt = 1 + (error.map { GRPCMetadataKeys.previousAttempts(in: $0.metadata) } ?? 0)
                run = makeRun(attemptContext)
            }
            guard var current = run else { return response }
            let asked = error.flatMap {
                self.wait(after: $0, run: current, scope: scope, descriptor: context.descriptor)
            }
            let decided = current.decide(
                waiting: asked, replayable: scope.isReplayable, cancelled: error?.code == .cancelled)
            if let decided, let error {
                // grpc-swift's executor waits (the pushback below); the run logs the retry and
                // counts the attempt.
                try await current.pause(for: decided, after: "\(error.code)")
            }
            run = current
            guard let error else { return response }
            return StreamingClientResponse(
                of: Output.self,
                error: RPCError(
                    code: error.code, message: error.message,
                    metadata: GRPCMetadataKeys.pushback(error.metadata, wait: decided), cause: error.cause))
        }

        /// How long to wait before retrying after `error`, or `nil` when it is not retried.
        private func wait(
            after error: RPCError, run: RetryRun, scope: GRPCCallScope, descriptor: MethodDescriptor
        ) -> Duration? {
            if error.cause is CircuitOpenError { return nil }
            let pushback = GRPCMetadataKeys.pushback(in: error.metadata)
            if case .some(.none) = pushback { return nil }
            // An attempt given up by its limit did not get an answer this time, as `unavailable`.
            let code = error.cause is GRPCAttemptTimedOut ? .unavailable : error.code
            let retryable = retryableCodes.contains(code)
            switch scope.context.retry {
            case .never:
                return nil
            case .withIdempotencyKey:
                return retryable ? run.wait(asked: pushback ?? nil) : nil
            case .custom(let decide):
                let attempt = RetryAttempt(
                    number: run.context.attempt,
                    request: scope.head
                        ?? HTTPRequest(
                            method: .post, scheme: "grpc", authority: nil,
                            path: "/\(descriptor.service)/\(descriptor.method)"),
                    response: nil, error: GRPCStatus(error), elapsed: .zero)
                switch decide(attempt) {
                case .stop: return nil
                case .retry: return run.wait(asked: pushback ?? nil)
                case .retryAfter(let duration): return run.wait(asked: duration)
                case .useDefaultRule: break
                }
            case nil:
                break
            }
            guard retryable, idempotentMethods.contains(descriptor) else { return nil }
            return run.wait(asked: pushback ?? nil)
        }

        private func makeRun(_ context: MiddlewareContext) -> RetryRun {
            var policy = policy
            policy.maxAttempts = min(policy.maxAttempts, Self.maxAttempts)
            return RetryRun(policy: policy, budget: budget, context: context, sleep: sleep)
        }

        /// The interceptor's identity in a call's scope, shared by its copies.
        private final class Identity: Sendable {}
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    extension GRPCRetryInterceptor: GRPCResendingInterceptor {
        /// Every code: an endpoint's ``Strata/RetryRule/custom(_:)`` rule may retry any, and the
        /// interceptor's pushback stops the executor after the others.
        var resentCodes: Set<RPCError.Code> {
            Set((1...16).compactMap { Status.Code(rawValue: $0).flatMap(RPCError.Code.init) })
        }
    }

    /// A Strata interceptor that has grpc-swift's retry executor send a call again after some
    /// status codes: ``GRPCNetworker`` turns the executor on for them.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    protocol GRPCResendingInterceptor: ClientInterceptor {
        /// The status codes after which the interceptor may have a call sent again.
        var resentCodes: Set<RPCError.Code> { get }
    }
#endif
