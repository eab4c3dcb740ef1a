import HTTPTypes

/// Adds header fields to every request: fixed ones, or ones computed per request,
/// synchronously or asynchronously (a bearer token read from a store, say) — the
/// earlier designs' request "metadata".
///
/// ```swift
/// let fixed = HeadersMiddleware([.userAgent: "MyApp/1.0", .accept: "application/json"])
/// let named = HeadersMiddleware(["User-Agent": "MyApp/1.0", "X-Client": "ios"])
/// let bearer = HeadersMiddleware.bearerToken { await tokenStore.accessToken }
/// ```
public struct HeadersMiddleware: Middleware {
    /// What to do when the request already has a field of the same name.
    public enum Policy: Sendable {
        /// Keep the request's own value (good for defaults).
        case keepExisting
        /// Replace it (good for credentials).
        case replace
    }

    private let policy: Policy
    private let fields: @Sendable (MiddlewareContext) async throws -> HTTPFields

    /// Adds fixed fields; by default a request's own fields win.
    public init(_ fields: HTTPFields, policy: Policy = .keepExisting) {
        self.policy = policy
        self.fields = { _ in fields }
    }

    /// Adds fixed fields named by strings; by default a request's own fields win.
    ///
    /// A name that is not a valid token does not trap: every request then fails with
    /// ``StrataError/Kind/middleware`` naming `HeadersMiddleware`, with a
    /// ``HeaderFieldError`` as ``StrataError/underlying``.
    public init(_ fields: HeaderList, policy: Policy = .keepExisting) {
        let resolved = Result { () throws(HeaderFieldError) in try fields.httpFields() }
        self.policy = policy
        self.fields = { _ in try resolved.get() }
    }

    /// Adds fields computed for each request. The closure may be synchronous or `async`.
    /// When it throws, the request fails with ``StrataError/Kind/middleware`` naming
    /// `HeadersMiddleware`, with the closure's error as ``StrataError/underlying``.
    public init(policy: Policy = .replace, _ fields: @escaping @Sendable (MiddlewareContext) async throws -> HTTPFields)
    {
        self.policy = policy
        self.fields = fields
    }

    /// Sets `Authorization: Bearer <token>` from `token`, read for every request;
    /// a `nil` token sends the request without the field.
    public static func bearerToken(_ token: @escaping @Sendable () async throws -> String?) -> HeadersMiddleware {
        HeadersMiddleware(policy: .replace) { _ in
            guard let token = try await token() else { return [:] }
            return [.authorization: "Bearer \(token)"]
        }
    }

    /// Adds the fields, then passes the request on.
    public func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        let extra = try await fields(context)
        var request = request
        for name in Set(extra.map(\.name)) {
            guard policy == .replace || request.headerFields[name] == nil else { continue }
            request.headerFields[values: name] = extra[values: name]
        }
        return try await next(request, body, context)
    }
}

extension HeadersMiddleware {
    /// `true`: it waits for nothing but `next`.
    public var boundsItsWaits: Bool { true }
}
