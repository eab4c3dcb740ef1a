import Foundation
import HTTPTypes

extension RequestDescription where Route: URLRouteProvider {
    /// Builds the URL from the route and encodes the request.
    /// - Throws: ``URLRouteError`` for the URL, ``ParameterEncodingError`` for the parameters.
    public func encoded(jsonEncoder: JSONEncoder = .strataDefault()) throws -> EncodedRequest {
        try encoded(url: route.url(), jsonEncoder: jsonEncoder)
    }
}

extension RequestDescription {
    /// Encodes the request for `url`, whatever the route type.
    ///
    /// Header fields the caller set win over the `Content-Type` an encoding would add.
    /// ``ParametersEncoding/automatic`` puts the parameters of a `GET`, `HEAD` or `DELETE`
    /// in the query and those of any other method in a JSON body.
    /// - Throws: ``URLRouteError`` when `url` has no scheme (or one `URLComponents` cannot find);
    ///   ``ParameterEncodingError`` when the parameters cannot be encoded, a
    ///   JSON body is asked for explicitly (``ParametersEncoding/json``) on a GET or HEAD
    ///   request, or parameters and ``body`` both want the body; ``HeaderFieldError`` when
    ///   a header was given a name that is not a valid token, and the error a modifier kept
    ///   for any other part that cannot be sent.
    public func encoded(url: URL, jsonEncoder: JSONEncoder = .strataDefault()) throws -> EncodedRequest {
        if let unsendable { throw unsendable }
        // `HTTPRequest(url:)` traps on a URL without a scheme (`/relative`, `:a`). A URL
        // that slices into scheme, authority and path is made into a request from those
        // slices, never through `HTTPRequest(url:)`: it needs no `URLComponents` to tell.
        var target = RequestTarget(url.absoluteString)
        guard target != nil || url.isHTTPRequestable else {
            throw URLRouteError.invalidURL(base: url.absoluteString, path: "")
        }
        var url = url
        var headers = headers
        var bodyBytes: MessageBody?
        var contentType: HTTPField?

        if let parameters {
            switch encoding.resolved(for: method) {
            case .automatic, .json:
                guard method != .get, method != .head else {
                    throw ParameterEncodingError(
                        reason: "a \(method.rawValue) request cannot carry a JSON body; use .urlQuery")
                }
                bodyBytes = MessageBody(try Self.wrappingErrors(of: parameters) { try jsonEncoder.encode($0) })
                contentType = HTTPField.jsonContentType
            case .formURL(let formEncoder):
                bodyBytes = MessageBody(
                    Data(try Self.wrappingErrors(of: parameters) { try formEncoder.encodedBytes($0) }))
                contentType = HTTPField.formContentType
            case .urlQuery(let formEncoder):
                target = nil
                url = try Self.appendingQuery(
                    try Self.wrappingErrors(of: parameters) { try formEncoder.encode($0) }, to: url)
            }
        }
        if let body {
            guard bodyBytes == nil else {
                throw ParameterEncodingError(
                    reason:
                        "the request has both a body and parameters encoded into the body; use .urlQuery for the parameters"
                )
            }
            let (bytes, type) = try body.encoded()
            bodyBytes = bytes
            contentType = type.map { HTTPField(name: .contentType, value: $0) }
        }
        if let contentType, headers[.contentType] == nil {
            headers.append(contentType)
        }
        let head =
            if let target {
                HTTPRequest(method: method, target: target, headerFields: headers)
            } else {
                HTTPRequest(method: method, resolving: url, headerFields: headers)
            }
        return EncodedRequest(head: head, body: bodyBytes)
    }

    /// Runs an encoder over `parameters`, turning its failures into ``ParameterEncodingError``
    /// that names the parameters' type and the coding path.
    static func wrappingErrors<Output>(
        of parameters: any Encodable & Sendable,
        _ encode: (any Encodable & Sendable) throws -> Output
    ) throws -> Output {
        do {
            return try encode(parameters)
        } catch let error as ParameterEncodingError {
            throw error
        } catch {
            throw ParameterEncodingError(
                reason: MappingError(type: type(of: parameters), underlying: error).description)
        }
    }

    /// `url` with `query` appended after any query it already has.
    ///
    /// `query` is escaped as `URL? + String` escapes a query (a `%` not followed by two hex
    /// digits becomes `%25`; `#`, spaces and other characters a query may not hold are
    /// percent-escaped), so a custom encoder's output can never trap `URLComponents`.
    static func appendingQuery(_ query: String, to url: URL) throws -> URL {
        guard !query.isEmpty else { return url }
        let query = URLPercentEscaping.escape(query, allowed: URLPercentEscaping.queryAllowed)
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw URLRouteError.invalidURL(base: url.absoluteString, path: "?" + query)
        }
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + query
        } else {
            components.percentEncodedQuery = query
        }
        guard let result = components.url else {
            throw URLRouteError.invalidURL(base: url.absoluteString, path: "?" + query)
        }
        return result
    }
}

extension HTTPField {
    /// The `Content-Type` of a JSON body, its value checked once rather than every request.
    fileprivate static let jsonContentType = HTTPField(name: .contentType, value: "application/json")
    /// The `Content-Type` of a form body.
    fileprivate static let formContentType = HTTPField(
        name: .contentType, value: "application/x-www-form-urlencoded; charset=utf-8")
}
