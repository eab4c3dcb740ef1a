import Foundation
import HTTPTypes

/// Everything needed to make one request: route, method, parameters with their
/// encoding, headers (the layered models' "metadata") and an optional body.
///
/// It is a plain value: build it, compare its encoded form in tests, send it on any
/// transport. The route is generic so that non-URL transports can bring their own;
/// HTTP requests use a ``URLRouteProvider``.
///
/// ```swift
/// let request = RequestDescription(
///     route: RegistrationRoute.auth,
///     method: .post,
///     parameters: ["login": "ann", "password": "secret"],
///     encoding: .formURL)
/// ```
///
/// Without an `encoding:`, parameters follow the method (``ParametersEncoding/automatic``):
/// the URL query for `GET`, `HEAD` and `DELETE`, a JSON body otherwise.
public struct RequestDescription<Route: Sendable>: Sendable {
    /// How to reach the resource.
    public var route: Route
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The parameters: a ``JSON`` value, a dictionary, or any `Encodable` model.
    public var parameters: (any Encodable & Sendable)?
    /// Where and how ``parameters`` are encoded; ``ParametersEncoding/automatic`` by default.
    public var encoding: ParametersEncoding
    /// Header fields sent with the request.
    public var headers: HTTPFields
    /// A body given as it is; it cannot be combined with a body encoding of parameters.
    public var body: RequestBody?
    /// The first part given that cannot be sent (a header name that is not a valid token,
    /// say), kept so that encoding throws it rather than the modifier trap.
    var unsendable: (any Error & Sendable)?

    /// Creates a request description.
    public init(
        route: Route,
        method: HTTPRequest.Method = .get,
        parameters: (any Encodable & Sendable)? = nil,
        encoding: ParametersEncoding = .automatic,
        headers: HTTPFields = [:],
        body: RequestBody? = nil
    ) {
        self.route = route
        self.method = method
        self.parameters = parameters
        self.encoding = encoding
        self.headers = headers
        self.body = body
    }

    /// Creates a request whose parameters are a ``JSON`` value, so that a mixed literal
    /// needs no `as JSON`:
    ///
    /// ```swift
    /// let create = RequestDescription(route: url, method: .post,
    ///                                 parameters: ["name": "Ann", "age": 31, "tags": ["a", "b"]])
    /// ```
    ///
    /// A literal of one value type (`["q": "swift"]`) still takes the `Encodable` initializer;
    /// both encode the same way.
    @_disfavoredOverload
    public init(
        route: Route,
        method: HTTPRequest.Method = .get,
        parameters: JSON,
        encoding: ParametersEncoding = .automatic,
        headers: HTTPFields = [:],
        body: RequestBody? = nil
    ) {
        self.init(
            route: route, method: method, parameters: parameters as any Encodable & Sendable,
            encoding: encoding, headers: headers, body: body)
    }

    /// Creates a request whose parameters are an application model, sent as its DTO.
    /// - Throws: ``MappingError`` when the model cannot produce its DTO.
    public init<Model: DTOEncodable>(
        route: Route,
        method: HTTPRequest.Method = .post,
        model: Model,
        encoding: ParametersEncoding = .automatic,
        headers: HTTPFields = [:]
    ) throws where Model.DTO: Encodable & Sendable {
        self.init(route: route, method: method, parameters: try model.toDTO(), encoding: encoding, headers: headers)
    }

    /// Creates a request whose parameters are a raw-layer model, sent as its ``JSON``.
    /// - Throws: ``MappingError`` when the model cannot produce its raw value.
    public init<Model: RawEncodable>(
        route: Route,
        method: HTTPRequest.Method = .post,
        raw model: Model,
        encoding: ParametersEncoding = .automatic,
        headers: HTTPFields = [:]
    ) throws where Model.Raw == JSON {
        self.init(route: route, method: method, parameters: try model.toRaw(), encoding: encoding, headers: headers)
    }

    /// The same request on another route, for example an erased one.
    public func mapRoute<Other: Sendable>(_ transform: (Route) throws -> Other) rethrows -> RequestDescription<Other> {
        var mapped = RequestDescription<Other>(
            route: try transform(route), method: method, parameters: parameters,
            encoding: encoding, headers: headers, body: body)
        mapped.unsendable = unsendable
        return mapped
    }
}
