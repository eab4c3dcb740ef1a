import Foundation

// `Endpoint(request, decoding: T.self)` reads any model kind. When `T` is several kinds,
// the most specific reading wins: app model (`DTODecodable`, bytes → DTO → model) over
// raw DTO (`RawDecodable`, its own `decode(rawBody:using:)`) over plain `Decodable`.
// Swift picks the overload: the `Decodable` one is disfavoured, and a type that is both
// `DTODecodable` and `RawDecodable` has its own overload, which reads it as a model.
// An `Optional` of any kind is `nil` for an empty body (204, 205 or zero bytes).

extension Endpoint where Response: Decodable & StrataSendableMetatype {
    /// An endpoint whose body is decoded straight from its bytes with the JSON decoder:
    /// plain `Decodable` models and `Codable` DTOs.
    ///
    /// The same label reads raw DTOs and app models; when `Response` is several kinds the
    /// order is app model (`DTODecodable`) > raw DTO (`RawDecodable`) > `Decodable`.
    /// An empty body (204, 205 or zero bytes) is `nil` for an `Optional` `Response`, and
    /// otherwise a ``MappingError`` saying the body was empty.
    @_disfavoredOverload
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>, decoding type: Response.Type) {
        self.init(request) { response, decoder in try BodyParsing.decodable(response, decoder) }
    }
}

extension Endpoint where Response: RawDecodable & StrataSendableMetatype {
    /// An endpoint whose body is a raw-layer model (DTO), read as ``init(_:raw:)`` reads it.
    ///
    /// Chosen over the `Decodable` reading when `Response` is both.
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>, decoding type: Response.Type) {
        self.init(request, raw: type)
    }
}

extension Endpoint where Response: DTODecodable & StrataSendableMetatype {
    /// An endpoint whose body is an application model, read as ``init(_:model:)`` reads
    /// it: bytes → DTO → `Response`.
    ///
    /// Chosen over the raw-DTO and `Decodable` readings when `Response` is several kinds.
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>, decoding type: Response.Type) {
        self.init(request, model: type)
    }
}

extension Endpoint where Response: DTODecodable & RawDecodable & StrataSendableMetatype {
    /// An endpoint whose `Response` is both an application model and a raw DTO: it is
    /// read as an application model, bytes → DTO → `Response`.
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>, decoding type: Response.Type) {
        self.init(request, model: type)
    }
}

extension Endpoint where Response: RawDecodable & StrataSendableMetatype {
    /// An endpoint whose body is a raw-layer model (DTO), read with
    /// ``RawDecodable/decode(rawBody:using:)``.
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>, raw type: Response.Type) {
        self.init(request) { response, decoder in try BodyParsing.raw(response, decoder) }
    }
}

extension Endpoint where Response: DTODecodable & StrataSendableMetatype {
    /// An endpoint whose body is read as the model's DTO and then mapped to the
    /// application model: bytes → DTO → `Response`.
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>, model type: Response.Type) {
        self.init(request) { response, decoder in try BodyParsing.model(response, decoder) }
    }
}

extension Endpoint {
    /// An endpoint whose body is parsed as ``JSON`` and handed to `transform`,
    /// as in the Endpoint + Networker + Result pattern's `Endpoint(url:parse:)`.
    public init<Route: URLRouteProvider>(
        _ request: RequestDescription<Route>,
        json transform: @escaping @Sendable (JSON) throws -> Response
    ) {
        self.init(request) { response, decoder in
            try BodyParsing.transformed(JSON(rawBody: response.body, decoder: decoder), transform)
        }
    }
}

extension Endpoint {
    /// The Endpoint + Networker + Result pattern's endpoint: a URL and a parse function over
    /// the body as Foundation objects (see ``JSON/foundationObject``) that returns a `Result`.
    ///
    /// ```swift
    /// let photo = Endpoint(url: url, parse: { json in
    ///     do { return .success(try Photo(with: json as? [String: Any])) }
    ///     catch let error { return .failure(error) }
    /// })
    /// ```
    ///
    /// A body that is not JSON, and a `.failure` from `parse`, fail the call as
    /// ``StrataError/Kind/decoding``, with the JSON reader's error or `parse`'s as
    /// ``StrataError/underlying``. ``init(_:json:)`` is the same over a ``JSON`` value.
    /// - Parameters:
    ///   - url: the resource's URL.
    ///   - method: the HTTP method; `GET` unless told.
    ///   - parse: turns the body's JSON, as `JSONSerialization` would give it, into a `Response`.
    public init(
        url: URL,
        method: HTTPRequest.Method = .get,
        parse: @escaping @Sendable (Any) -> Result<Response, any Error>
    ) {
        self.init(
            RequestDescription(route: url, method: method),
            json: { json in
                try parse(json.foundationObject).get()
            })
    }
}

extension Endpoint where Response == JSON {
    /// An endpoint whose body is any ``JSON`` value.
    @_disfavoredOverload
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>) {
        self.init(request) { response, decoder in try JSON(rawBody: response.body, decoder: decoder) }
    }
}

extension Endpoint where Response == Data {
    /// An endpoint whose body is returned as it is.
    @_disfavoredOverload
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>) {
        self.init(request) { response, _ in response.body }
    }

    /// An endpoint whose body is returned as it is: `decoding: Data.self` means the bytes,
    /// as `Endpoint<Data>(request)` does, not a base64 JSON string.
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>, decoding type: Data.Type) {
        self.init(request)
    }
}

extension Endpoint where Response == String {
    /// An endpoint whose body is UTF-8 text.
    @_disfavoredOverload
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>) {
        self.init(request) { response, decoder in try String(rawBody: response.body, decoder: decoder) }
    }

    /// An endpoint whose body is UTF-8 text: `decoding: String.self` means the text, as
    /// `Endpoint<String>(request)` does, not a JSON string literal.
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>, decoding type: String.Type) {
        self.init(request)
    }
}

extension Endpoint where Response == Void {
    /// An endpoint whose body, if any, is ignored.
    ///
    /// `Endpoint(request)` with no type named is this one (`DELETE`, `PUT` and other calls
    /// whose answer carries nothing to read); name the type for the others:
    /// `Endpoint<Data>(request)`, `Endpoint<String>(request)`, `Endpoint<JSON>(request)`.
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>) {
        self.init(request) { _, _ in () }
    }
}
