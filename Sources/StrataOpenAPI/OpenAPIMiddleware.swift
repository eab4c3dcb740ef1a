#if OpenAPI
    import Foundation
    import HTTPTypes
    import OpenAPIRuntime
    import Strata

    /// A Strata `Middleware` step that runs an OpenAPI `ClientMiddleware`, so that the
    /// OpenAPI ecosystem's middleware can be placed in a `Networker`'s pipeline.
    ///
    /// ```swift
    /// let networker = Networker(transport: transport, middleware: [OpenAPIMiddleware(someClientMiddleware)])
    /// ```
    ///
    /// The client middleware sees the request's scheme and authority as its `baseURL` and the
    /// path and query as the request's path; the operation is the call's
    /// ``StrataCore/MiddlewareContext/openAPIOperationID`` (an empty string when the call has
    /// none). Bodies are passed on as they come, never collected, and a body the client
    /// middleware passes on untouched reaches the next step as the very body it was (a
    /// replayable body stays replayable). What the client middleware throws on its own account
    /// becomes `StrataError.Kind.middleware` naming this type; errors from the steps
    /// after it pass through untouched.
    public struct OpenAPIMiddleware: Middleware {
        /// The client middleware this step runs.
        public let middleware: any ClientMiddleware

        /// A step running `middleware`.
        public init(_ middleware: some ClientMiddleware) {
            self.middleware = middleware
        }

        /// Runs the client middleware with the request, its `next` passing the request on to
        /// the steps after this one.
        /// - Throws: what the client middleware throws, or what the steps after this one throw.
        public func intercept(
            _ request: HTTPRequest,
            body: MessageBody?,
            context: MiddlewareContext,
            next: MiddlewareNext
        ) async throws -> (HTTPResponse, MessageBody?) {
            let (relative, baseURL) = try OpenAPIRequestTarget.split(request)
            let base = OpenAPIRequestTarget(baseURL: baseURL)
            let requestBodies = BodyPair(message: body)
            let responseBodies = Locked<BodyPair?>(nil)
            let (response, responseBody) = try await middleware.intercept(
                relative, body: requestBodies.http, baseURL: baseURL, operationID: context.openAPIOperationID ?? ""
            ) { request, body, baseURL in
                let target = baseURL == base?.baseURL ? base : OpenAPIRequestTarget(baseURL: baseURL)
                guard let target else {
                    throw URLRouteError.invalidURL(base: baseURL.absoluteString, path: request.path ?? "")
                }
                let (response, responseBody) = try await next(
                    target.absolute(request), requestBodies.message(for: body), context)
                let pair = BodyPair(message: responseBody)
                responseBodies.withLock { $0 = pair }
                return (response, pair.http)
            }
            let passedOn = responseBodies.withLock { $0 }
            return (response, passedOn?.message(for: responseBody) ?? responseBody.map(MessageBody.init))
        }
    }

    /// A Strata body and the OpenAPI body made from it, so that the OpenAPI body, handed back
    /// untouched, turns back into the very Strata body (in memory, replayable, from its file)
    /// instead of a stream over a stream.
    struct BodyPair: Sendable {
        /// The Strata body.
        let message: MessageBody?
        /// The OpenAPI body over it.
        let http: HTTPBody?

        init(message: MessageBody?) {
            self.message = message
            self.http = message.map(HTTPBody.init)
        }

        /// The Strata body for `body`: ``message`` when `body` is ``http``, a body over
        /// `body` otherwise.
        func message(for body: HTTPBody?) -> MessageBody? {
            body === http ? message : body.map(MessageBody.init)
        }
    }
#endif
