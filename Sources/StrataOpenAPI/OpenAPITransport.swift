#if OpenAPI
    import Foundation
    import HTTPTypes
    import OpenAPIRuntime
    import Strata

    /// A Strata `Transport` that sends through any OpenAPI `ClientTransport`
    /// (swift-openapi-async-http-client's, swift-openapi-urlsession's, or your own), so that a
    /// `Networker` runs its pipeline over it.
    ///
    /// ```swift
    /// let networker = Networker(transport: OpenAPITransport(someClientTransport))
    /// ```
    ///
    /// The request's scheme and authority become the `baseURL` the client transport is given,
    /// and its path and query the request's path. Bodies are passed on as they come, without
    /// being collected; a replayable Strata body is a body the client transport may iterate
    /// more than once. The `Networker` enforces the deadline whatever the client
    /// transport does (`Transport.enforcesDeadline` is `false`); what the client
    /// transport throws reaches the caller as a `TransportError` of kind
    /// `TransportError.Kind.other` with the error attached, unless it is one of
    /// Strata's own errors.
    public struct OpenAPITransport: Transport {
        /// The transport the requests go through.
        public let transport: any ClientTransport
        /// The `operationID` handed to the client transport for a request, which a Strata
        /// transport is not told: an empty string unless given.
        public let operationID: @Sendable (HTTPRequest) -> String

        /// A Strata transport sending through `transport`.
        /// - Parameters:
        ///   - transport: the OpenAPI client transport.
        ///   - operationID: the `operationID` to hand it for a request (it uses it for logs and
        ///     traces, if at all); an empty string by default.
        public init(
            _ transport: some ClientTransport, operationID: @escaping @Sendable (HTTPRequest) -> String = { _ in "" }
        ) {
            self.transport = transport
            self.operationID = operationID
        }

        /// Sends `request` with `body` through the client transport.
        /// - Throws: `URLRouteError.invalidURL(base:path:)` for a request with no
        ///   scheme or authority, or whatever the client transport throws.
        public func send(
            _ request: HTTPRequest,
            body: MessageBody?,
            deadline: ContinuousClock.Instant?
        ) async throws -> (HTTPResponse, MessageBody?) {
            let (relative, baseURL) = try OpenAPIRequestTarget.split(request)
            let (response, responseBody) = try await transport.send(
                relative, body: body.map(HTTPBody.init), baseURL: baseURL, operationID: operationID(request))
            if response.cannotHaveBody(respondingTo: request.method) { return (response, nil) }
            return (response, responseBody.map(MessageBody.init))
        }
    }
#endif
