import Foundation

extension Endpoint where Response: Decodable & StrataSendableMetatype {
    /// An endpoint whose body is decoded straight from its bytes with the JSON decoder:
    /// plain `Decodable` models and `Codable` DTOs.
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>, decoding type: Response.Type) {
        self.init(request) { response, decoder in try BodyParsing.decodable(response.body, decoder) }
    }
}

extension Endpoint where Response: RawDecodable & StrataSendableMetatype {
    /// An endpoint whose body is a raw-layer model (DTO), read with
    /// ``RawDecodable/decode(rawBody:using:)``.
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>, raw type: Response.Type) {
        self.init(request) { response, decoder in try BodyParsing.raw(response.body, decoder) }
    }
}

extension Endpoint where Response: DTODecodable & StrataSendableMetatype {
    /// An endpoint whose body is read as the model's DTO and then mapped to the
    /// application model: bytes → DTO → `Response`.
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>, model type: Response.Type) {
        self.init(request) { response, decoder in try BodyParsing.model(response.body, decoder) }
    }
}

extension Endpoint {
    /// An endpoint whose body is parsed as ``JSON`` and handed to `transform`,
    /// as in the seed's `Endpoint(url:parse:)`.
    public init<Route: URLRouteProvider>(
        _ request: RequestDescription<Route>,
        json transform: @escaping @Sendable (JSON) throws -> Response
    ) {
        self.init(request) { response, decoder in
            try BodyParsing.transformed(JSON(rawBody: response.body, decoder: decoder), transform)
        }
    }
}

extension Endpoint where Response == JSON {
    /// An endpoint whose body is any ``JSON`` value.
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>) {
        self.init(request) { response, decoder in try JSON(rawBody: response.body, decoder: decoder) }
    }
}

extension Endpoint where Response == Data {
    /// An endpoint whose body is returned as it is.
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>) {
        self.init(request) { response, _ in response.body }
    }
}

extension Endpoint where Response == String {
    /// An endpoint whose body is UTF-8 text.
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>) {
        self.init(request) { response, decoder in try String(rawBody: response.body, decoder: decoder) }
    }
}

extension Endpoint where Response == Void {
    /// An endpoint whose body, if any, is ignored.
    public init<Route: URLRouteProvider>(_ request: RequestDescription<Route>) {
        self.init(request) { _, _ in () }
    }
}
