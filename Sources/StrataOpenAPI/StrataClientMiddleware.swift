#if OpenAPI
    import Foundation
    import HTTPTypes
    import Logging
    import OpenAPIRuntime
    import Strata

    /// An OpenAPI `ClientMiddleware` that runs a Strata `Middleware` step, so that
    /// Strata's steps (or your own) can be placed in a generated client's middleware.
    ///
    /// ```swift
    /// let client = Client(
    ///     serverURL: serverURL, transport: transport,
    ///     middlewares: [StrataClientMiddleware(HeadersMiddleware([.userAgent: "MyApp/1.0"]))])
    /// ```
    ///
    /// The step sees an absolute request (the `baseURL`'s scheme, authority and path joined
    /// with the request's path) and a ``StrataCore/MiddlewareContext`` of a call of its own: the
    /// operation's `operationId` as ``StrataCore/MiddlewareContext/openAPIOperationID``, a
    /// deadline of ``timeout`` from the start of the call, and ``logger`` with the
    /// `openapi.operation_id` metadata. Outside a `Networker` nothing enforces that
    /// deadline (Strata's own steps bound their waits by it), and what the step records or
    /// leaves for after the call (`MiddlewareContext.afterCall(id:_:)`) goes nowhere:
    /// for the whole of Strata's pipeline, send through ``NetworkerTransport`` instead.
    ///
    /// What the step passes on goes to the rest of the generated client's middleware: the
    /// request (split again into a base URL and a path, the original base URL kept while the
    /// request still goes there), without its credential fields when the step's context
    /// `MiddlewareContext.withholdsCredentials`, as Strata's pipeline does before its
    /// transport. Bodies are passed on as they come, never collected. Errors are thrown as
    /// they are; the generated client wraps them in its `ClientError`.
    public struct StrataClientMiddleware: ClientMiddleware {
        /// The step this middleware runs.
        public let middleware: any Middleware
        /// The deadline the step is told, from the start of each call; `nil` for none.
        public var timeout: Duration?
        /// The logger the step is given.
        public var logger: Logger

        /// A client middleware running `middleware`.
        /// - Parameters:
        ///   - middleware: the Strata step.
        ///   - timeout: see ``timeout``.
        ///   - logger: see ``logger``.
        public init(_ middleware: some Middleware, timeout: Duration? = nil, logger: Logger = Logger(label: "strata")) {
            self.middleware = middleware
            self.timeout = timeout
            self.logger = logger
        }

        /// Runs the step with the absolute request, its `next` passing the request on to the
        /// rest of the generated client's middleware and its transport.
        /// - Throws: what the step throws, or what the middleware after it and the transport
        ///   throw.
        public func intercept(
            _ request: HTTPRequest,
            body: HTTPBody?,
            baseURL: URL,
            operationID: String,
            next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            guard let base = OpenAPIRequestTarget(baseURL: baseURL) else {
                throw URLRouteError.invalidURL(base: baseURL.absoluteString, path: request.path ?? "")
            }
            var logger = self.logger
            logger[metadataKey: operationIDMetadataKey] = "\(operationID)"
            let context = MiddlewareContext(
                deadline: timeout.map { .now + $0 }, logger: logger, options: .openAPIOperation(operationID))
            let (response, responseBody) = try await middleware.intercept(
                base.absolute(request), body: body.map(MessageBody.init), context: context
            ) { request, body, context in
                let request = context.adjustedForTransport(request)
                let (relative, baseURL) = try OpenAPIRequestTarget.split(request, preferring: base)
                let (response, responseBody) = try await next(relative, body.map(HTTPBody.init), baseURL)
                return (response, responseBody.map(MessageBody.init))
            }
            return (response, responseBody.map(HTTPBody.init))
        }
    }
#endif
