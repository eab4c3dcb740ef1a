import Foundation
import HTTPTypes
import Strata

extension MockResponse {
    /// A response with an empty body, like `.status(.noContent)` or `.status(404)`.
    public static func status(_ status: HTTPResponse.Status) -> MockResponse {
        MockResponse(status: status)
    }

    /// A JSON body, keys sorted, with `Content-Type: application/json`.
    ///
    /// A value JSON cannot hold (a non-finite number) gives a response that throws
    /// ``MockTransportError/encodingFailed(_:)`` when it is served.
    public static func json(_ value: JSON, status: HTTPResponse.Status = .ok) -> MockResponse {
        do {
            return try encodable(value, status: status)
        } catch {
            return .failure(MockTransportError.encodingFailed("\(value): \(error)"))
        }
    }

    /// Any `Encodable` value as a JSON body, encoded by `encoder` (keys sorted by default),
    /// with `Content-Type: application/json`:
    ///
    /// ```swift
    /// mock.stub(.get, "/users/1", with: .json(UserDTO(name: "Ann", age: 31)))
    /// ```
    ///
    /// A value that cannot be encoded gives a response that throws
    /// ``MockTransportError/encodingFailed(_:)`` when it is served.
    @_disfavoredOverload
    public static func json(
        _ value: some Encodable & Sendable,
        encoder: JSONEncoder = .strataDefault(),
        status: HTTPResponse.Status = .ok
    ) -> MockResponse {
        do {
            return try encodable(value, encoder: encoder, status: status)
        } catch {
            return .failure(error)
        }
    }

    /// `value` encoded as JSON by `encoder`, with `Content-Type: application/json`.
    /// - Throws: ``MockTransportError/encodingFailed(_:)`` when `value` cannot be encoded.
    public static func encodable(
        _ value: some Encodable & Sendable,
        encoder: JSONEncoder = .strataDefault(),
        status: HTTPResponse.Status = .ok
    ) throws -> MockResponse {
        let body: Data
        do {
            body = try encoder.encode(value)
        } catch {
            throw MockTransportError.encodingFailed("\(type(of: value)): \(error)")
        }
        return data(body, status: status, contentType: "application/json")
    }

    /// A text body, `Content-Type: text/plain; charset=utf-8` unless given another type.
    public static func text(
        _ text: String,
        status: HTTPResponse.Status = .ok,
        contentType: String = "text/plain; charset=utf-8"
    ) -> MockResponse {
        data(Data(text.utf8), status: status, contentType: contentType)
    }

    /// A body of raw bytes, `Content-Type: application/octet-stream` unless given
    /// another type; `nil` sends no `Content-Type`.
    public static func data(
        _ data: Data,
        status: HTTPResponse.Status = .ok,
        contentType: String? = "application/octet-stream"
    ) -> MockResponse {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        return MockResponse(status: status, headerFields: fields, body: data)
    }
}
