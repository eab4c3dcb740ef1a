#if GRPC
    import GRPCCore
    import HTTPTypes
    import Strata

    /// Puts a `CredentialProvider`'s credential in every gRPC call's `authorization`
    /// metadata, and renews it when the server answers `unauthenticated`: the same store of
    /// credentials and single-flight renewal `AuthenticationMiddleware` drives over
    /// HTTP, with the same provider.
    ///
    /// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests makes these calls) -->
    /// ```swift
    /// let tokens = BearerTokenProvider(BearerToken(savedToken)) { rejected in try await authAPI.renew(rejected.value) }
    /// let networker = GRPCNetworker(transport: transport, interceptors: [GRPCAuthenticationInterceptor(tokens)])
    /// ```
    ///
    /// - The credential goes in the metadata field `authorization`, as
    ///   `CredentialProvider.apply(_:to:)` writes the HTTP `Authorization` field (for a
    ///   bearer token: `Bearer <token>`).
    /// - After `unauthenticated`, the credential is renewed once and the call sent once more
    ///   with the new one; a second `unauthenticated` is the call's answer. grpc-swift's retry
    ///   executor sends it again (an interceptor cannot: see ``GRPCRetryInterceptor``), which
    ///   ``GRPCNetworker`` turns on for `unauthenticated`; on a plain `GRPCClient`, set
    ///   ``GRPCNetworker/executionPolicy(for:)`` on the call's options.
    /// - Single flight: however many calls are rejected together, the provider refreshes once
    ///   and they all wait for that refresh; a call rejected with a credential older than the
    ///   current one is sent again with the current one, without another refresh.
    /// - Refresh window: at most `maxRefreshes` refreshes start within any `interval`; past
    ///   that, `unauthenticated` is the call's answer.
    /// - A failed load or refresh fails the calls waiting for it: ``GRPCNetworker`` reports a
    ///   ``StrataCore/StrataError`` of kind `StrataError.Kind.middleware` naming this type,
    ///   with the provider's error as `StrataError.underlying`.
    ///
    /// Refreshes are logged at info level (`credential refreshed`) and counted on the call
    /// (``GRPCResponse/credentialRefreshes``). Copies share their credential; an HTTP client's
    /// `AuthenticationMiddleware` keeps a store of its own.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCAuthenticationInterceptor<Provider: CredentialProvider>: ClientInterceptor {
        private let store: CredentialStore<Provider>
        private let identity = Identity()

        /// Creates the interceptor for `provider`, allowing at most `maxRefreshes` refreshes to
        /// start within any `interval`.
        public init(
            _ provider: Provider,
            maxRefreshes: Int = AuthenticationMiddleware<Provider>.defaultMaxRefreshes,
            per interval: Duration = AuthenticationMiddleware<Provider>.defaultInterval
        ) {
            store = CredentialStore(provider: provider, maxRefreshes: maxRefreshes, interval: interval)
        }

        /// The provider the credentials come from.
        public var provider: Provider { store.provider }

        /// Sends the attempt with the credential, and has the call sent once more after an
        /// `unauthenticated`; see the type's documentation.
        public func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            let scope = GRPCCallScope.forAttempt(request: request.metadata)
            let callContext = scope.context
            let failure = { (error: any Error) -> any Error in
                RPCError(
                    code: .unauthenticated, message: "credential load or refresh failed",
                    metadata: GRPCMetadataKeys.pushback([:], wait: nil),
                    cause: GRPCInterceptorFailure(error: error, interceptor: String(describing: Self.self)))
            }
            let issued = try await store.credential(for: callContext, failure: failure)
            var request = request
            request.metadata.replaceOrAddString(authorization(issued.credential), forKey: "authorization")
            let response = try await next(request, context)
            guard case .failure(let error) = response.accepted, error.code == .unauthenticated else { return response }
            // Once a call: a networker's call remembers it in its scope; a plain client's
            // attempt knows it is not the first from the executor.
            let first =
                scope.spansAttempts
                ? scope.mark(ObjectIdentifier(identity)) : GRPCMetadataKeys.previousAttempts(in: error.metadata) == 0
            guard first, scope.isReplayable, let renewal = store.renewal(after: issued, context: callContext) else {
                return Self.rejected(error, wait: nil)
            }
            _ = try await store.settle(renewal, deadline: callContext.deadline, failure: failure)
            return Self.rejected(error, wait: .zero)
        }

        /// The `authorization` value for `credential`, as the provider writes it on an HTTP request.
        private func authorization(_ credential: Provider.Credential) -> String {
            var head = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/")
            store.provider.apply(credential, to: &head)
            return head.headerFields[.authorization] ?? ""
        }

        /// `error` as the attempt's answer: sent again at once (`wait` `.zero`, marked so that an
        /// outer retry step leaves it alone), or not again (`nil`).
        private static func rejected<Output>(_ error: RPCError, wait: Duration?) -> StreamingClientResponse<Output> {
            var metadata = GRPCMetadataKeys.pushback(error.metadata, wait: wait)
            if wait != nil { metadata.replaceOrAddString("1", forKey: GRPCMetadataKeys.resend) }
            return StreamingClientResponse(
                error: RPCError(code: error.code, message: error.message, metadata: metadata, cause: error.cause))
        }

        /// The interceptor's identity in a call's scope, shared by its copies.
        private final class Identity: Sendable {}
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    extension GRPCAuthenticationInterceptor: GRPCResendingInterceptor {
        var resentCodes: Set<RPCError.Code> { [.unauthenticated] }
    }

    /// A failure of one of Strata's interceptors' own work (a credential refresh), carried as
    /// an `RPCError`'s cause so that ``GRPCNetworker`` reports it as
    /// ``StrataCore/StrataError/Kind/middleware`` naming the interceptor.
    struct GRPCInterceptorFailure: Error, Sendable {
        /// The error.
        let error: any Error
        /// The interceptor's type name.
        let interceptor: String
    }
#endif
