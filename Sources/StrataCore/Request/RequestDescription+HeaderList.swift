import HTTPTypes

extension RequestDescription {
    /// Creates a request description whose headers are named by strings:
    ///
    /// ```swift
    /// let request = RequestDescription(route: route, method: .post, headers: ["X-Token": "abc"])
    /// ```
    ///
    /// A name that is not a valid token does not trap: encoding or sending the request
    /// throws ``HeaderFieldError``. `encoding` defaults to the main initialiser's default.
    public init(
        route: Route,
        method: HTTPRequest.Method = .get,
        parameters: (any Encodable & Sendable)? = nil,
        encoding: ParametersEncoding? = nil,
        headers: HeaderList,
        body: RequestBody? = nil
    ) {
        if let encoding {
            self.init(route: route, method: method, parameters: parameters, encoding: encoding, body: body)
        } else {
            self.init(route: route, method: method, parameters: parameters, body: body)
        }
        setHeaders(headers)
    }

    /// Creates a request whose parameters are an application model, sent as its DTO, with
    /// headers named by strings (an invalid name throws ``HeaderFieldError`` when the request is encoded).
    /// - Throws: ``MappingError`` when the model cannot produce its DTO.
    public init<Model: DTOEncodable>(
        route: Route,
        method: HTTPRequest.Method = .post,
        model: Model,
        encoding: ParametersEncoding = .automatic,
        headers: HeaderList
    ) throws where Model.DTO: Encodable & Sendable {
        try self.init(route: route, method: method, model: model, encoding: encoding)
        setHeaders(headers)
    }

    /// Creates a request whose parameters are a raw-layer model, sent as its ``JSON``, with
    /// headers named by strings.
    /// - Throws: ``MappingError`` when the model cannot produce its raw value.
    public init<Model: RawEncodable>(
        route: Route,
        method: HTTPRequest.Method = .post,
        raw model: Model,
        encoding: ParametersEncoding = .automatic,
        headers: HeaderList
    ) throws where Model.Raw == JSON {
        try self.init(route: route, method: method, raw: model, encoding: encoding)
        setHeaders(headers)
    }

    /// Sets each field of `list`, replacing fields of the same name; remembers the first
    /// invalid name so that encoding throws it.
    mutating func setHeaders(_ list: HeaderList) {
        let (fields, error) = list.resolved()
        setHeaders(fields)
        if let error { keepUnsendable(error) }
    }

    /// Keeps `error` for encoding to throw, unless an earlier part already failed: the first
    /// part that cannot be sent is the one reported.
    package mutating func keepUnsendable(_ error: any Error & Sendable) {
        if unsendable == nil { unsendable = error }
    }

    /// Sets each field of `fields`, replacing fields of the same name; new names are
    /// appended in the order they first appear.
    mutating func setHeaders(_ fields: HTTPFields) {
        var seen = Set<HTTPField.Name>()
        for field in fields where seen.insert(field.name).inserted {
            headers[values: field.name] = fields[values: field.name]
        }
    }
}
