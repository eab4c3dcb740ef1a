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
///     transport: AsyncHTTPClientTransport(),
///     middleware: [HeadersMiddleware(["User-Agent": "MyApp/1.0"]), LoggingMiddleware()])
/// let user = try await networker.send(Endpoint(request, model: User.self))
/// ```
///
/// Requests pass through `middleware` in array order and responses in reverse.
public struct Networker: Sendable {
    /// Settings every request of this client shares; endpoints may override some.
    public struct Configuration: Sendable {
        /// Encodes JSON parameters.
        public var jsonEncoder: JSONEncoder = .strataDefault()
        /// Decodes JSON responses.
        public var jsonDecoder: JSONDecoder = .strataDefault()
        /// How long a whole exchange may take, body included; `nil` for no limit.
        public var timeout: Duration? = .seconds(60)
        /// The largest response body the client reads into memory.
        public var maxResponseBodySize: Int = 32 * 1024 * 1024
        /// Which responses count as success.
        public var validation: ResponseValidation = .default
        /// The logger handed to middleware in ``MiddlewareContext``.
        public var logger = Logger(label: "strata")

        /// The defaults: sorted-key JSON, 60 s timeout, 32 MiB bodies, 2xx accepted.
        public init() {}
    }

    /// Sends the requests.
    public let transport: any Transport
    /// The steps around the transport, outermost first.
    public let middleware: [any Middleware]
    /// Shared settings.
    public let configuration: Configuration
    let chain: MiddlewareNext

    /// Creates a client.
    public init(transport: any Transport, middleware: [any Middleware] = [], configuration: Configuration = Configuration()) {
        self.transport = transport
        self.middleware = middleware
        self.configuration = configuration
        let send: MiddlewareNext = { request, body, context in
            try await transport.send(request, body: body, deadline: context.deadline)
        }
        self.chain = middleware.reversed().reduce(send) { next, step in
            { request, body, context in
                try await step.intercept(request, body: body, context: context, next: next)
            }
        }
    }

    /// Loads `endpoint` and returns its parsed response.
    /// - Throws: ``StrataError`` naming the stage that failed.
    public func send<Response>(_ endpoint: Endpoint<Response>) async throws(StrataError) -> Response {
        try await response(for: endpoint).value
    }

    /// Loads `endpoint` and returns the parsed value with the response head, the raw
    /// body and the time it took.
    /// - Throws: ``StrataError`` naming the stage that failed.
    public func response<Response>(for endpoint: Endpoint<Response>) async throws(StrataError) -> EndpointResponse<Response> {
        let start = ContinuousClock.now
        let encoded = try encode(endpoint)
        let request = encoded.head
        let context = makeContext(for: endpoint, start: start)

        let head: HTTPResponse
        let body: Data
        do {
            let (response, responseBody) = try await chain(request, encoded.body, context)
            head = response
            do {
                body = try await responseBody?.collect(upTo: configuration.maxResponseBodySize) ?? Data()
            } catch {
                throw Self.classify(error, request: request, response: response)
            }
        } catch {
            throw Self.classify(error, request: request, response: nil)
        }

        try (endpoint.validation ?? configuration.validation).validate(head, body: body, for: request)

        let value: Response
        do {
            value = try endpoint.parse(RawResponse(head: head, body: body), endpoint.jsonDecoder ?? configuration.jsonDecoder)
        } catch {
            let mapping = (error as? MappingError) ?? MappingError(type: Response.self, underlying: error)
            let kind: StrataError.Kind = mapping.layer == .model ? .mapping(mapping) : .decoding(mapping)
            throw StrataError(kind, request: request, response: head, body: body)
        }
        return EndpointResponse(value: value, request: request, head: head, body: body,
                                duration: start.duration(to: .now))
    }

    /// The context for one load of `endpoint` started at `start`.
    func makeContext<Response>(for endpoint: Endpoint<Response>, start: ContinuousClock.Instant) -> MiddlewareContext {
        MiddlewareContext(
            deadline: (endpoint.timeout ?? configuration.timeout).map { start + $0 },
            attributes: endpoint.attributes,
            logger: configuration.logger)
    }

    /// Builds the URL and encodes the parameters.
    func encode<Response>(_ endpoint: Endpoint<Response>) throws(StrataError) -> EncodedRequest {
        let url: URL
        do {
            url = try endpoint.request.route.url()
        } catch {
            throw StrataError(.invalidURL(error))
        }
        do {
            return try endpoint.request.encoded(url: url, jsonEncoder: endpoint.jsonEncoder ?? configuration.jsonEncoder)
        } catch let error as ParameterEncodingError {
            throw StrataError(.encoding(error))
        } catch {
            throw StrataError(.invalidURL(error))
        }
    }

    /// Maps whatever the pipeline threw to a ``StrataError``.
    static func classify(_ error: any Error, request: HTTPRequest, response: HTTPResponse?) -> StrataError {
        switch error {
        case let error as StrataError:
            return error
        case is CancellationError:
            return StrataError(.cancelled, request: request, response: response)
        case MessageBodyError.tooLarge(let limit):
            return StrataError(.bodyTooLarge(limit: limit), request: request, response: response)
        case let error as TransportError:
            if Task.isCancelled, error.kind != .timedOut {
                return StrataError(.cancelled, request: request, response: response)
            }
            return StrataError(.transport(error), request: request, response: response)
        default:
            if Task.isCancelled { return StrataError(.cancelled, request: request, response: response) }
            return StrataError(.transport(TransportError(.other, underlying: error)), request: request, response: response)
        }
    }
}
