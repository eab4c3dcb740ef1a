import Foundation

/// A request together with the way its response becomes a `Response` value:
/// everything a client needs to load one resource.
///
/// ```swift
/// extension Photo {
///     static func single(by id: Int, with baseURL: URL) throws -> Endpoint<Photo> {
///         Endpoint(RequestDescription(route: try baseURL + "photos/\(id)"), decoding: Photo.self)
///     }
/// }
/// ```
///
/// Endpoints are values: build them anywhere, inspect ``encoded(jsonEncoder:)`` in tests with no
/// network, and ``map(_:)`` their result.
public struct Endpoint<Response>: Sendable {
    /// The request, with its route erased to any URL route.
    public var request: RequestDescription<any URLRouteProvider>
    /// Turns the received response into a `Response`, using the given decoder.
    public var parse: @Sendable (RawResponse, JSONDecoder) throws -> Response
    /// A decoder for this endpoint only; `nil` uses the client's.
    public var jsonDecoder: JSONDecoder?
    /// An encoder for this endpoint's parameters only; `nil` uses the client's.
    public var jsonEncoder: JSONEncoder?
    /// Which responses count as success for this endpoint; `nil` uses the client's.
    public var validation: ResponseValidation?
    /// How long the whole call may take; `nil` uses the client's timeout.
    public var timeout: Duration?
    /// How long each attempt may wait for the response head; `nil` uses the client's
    /// ``Networker/Configuration/attemptTimeout``.
    public var attemptTimeout: Duration?
    /// Free-form attributes middleware can act on (see ``MiddlewareContext/attributes``).
    public var attributes: [String: String] = [:]
    /// What this endpoint asks of the client's features, under their own keys
    /// (``CallValueKey``): each call's ``MiddlewareContext/options`` start with them.
    /// Features give them typed modifiers (`endpoint.retry(.never)`,
    /// `endpoint.cache(.cacheElseRemote)`); see ``option(_:_:)``.
    public var options = CallValues()

    /// Creates an endpoint from a request and a parse function.
    ///
    /// The parse function should throw ``MappingError`` when the body does not
    /// describe a `Response`.
    public init<Route: URLRouteProvider>(
        _ request: RequestDescription<Route>,
        parse: @escaping @Sendable (RawResponse, JSONDecoder) throws -> Response
    ) {
        self.request = request.mapRoute { $0 as any URLRouteProvider }
        self.parse = parse
    }

    /// Encodes the request, for a transport or for inspection in a test.
    /// - Throws: ``URLRouteError`` or ``ParameterEncodingError``.
    public func encoded(jsonEncoder defaultEncoder: JSONEncoder = .strataDefault()) throws -> EncodedRequest {
        try request.encoded(url: request.route.url(), jsonEncoder: jsonEncoder ?? defaultEncoder)
    }

    /// The same request, with `transform` applied to the parsed response.
    public func map<Mapped>(
        _ transform: @escaping @Sendable (Response) throws -> Mapped
    ) -> Endpoint<Mapped> {
        let parse = self.parse
        var mapped = Endpoint<Mapped>(request) { response, decoder in
            let value = try parse(response, decoder)
            do {
                return try transform(value)
            } catch {
                var mapping = MappingError(type: Mapped.self, underlying: error)
                mapping.layer = .model
                throw mapping
            }
        }
        mapped.jsonDecoder = jsonDecoder
        mapped.jsonEncoder = jsonEncoder
        mapped.validation = validation
        mapped.timeout = timeout
        mapped.attemptTimeout = attemptTimeout
        mapped.attributes = attributes
        mapped.options = options
        return mapped
    }
}

extension Endpoint {
    /// Erased requests keep their route as it is.
    init(
        _ request: RequestDescription<any URLRouteProvider>,
        parse: @escaping @Sendable (RawResponse, JSONDecoder) throws -> Response
    ) {
        self.request = request
        self.parse = parse
    }
}
