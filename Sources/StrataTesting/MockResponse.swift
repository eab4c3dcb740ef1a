import Foundation
import HTTPTypes

/// What a ``MockTransport`` answers: a response (status, header fields, body) or an
/// error, after an optional delay.
///
/// ```swift
/// mock.stub(.get, "/users/1", with: .json(["name": "Ann"]))
/// mock.stub(.get, "/slow", with: .text("late").delayed(by: .seconds(2)))
/// mock.stub(.get, "/down", with: .failure(TransportError(.connectionRefused)))
/// ```
public struct MockResponse: Sendable {
    /// The status; 200 unless set.
    public var status: HTTPResponse.Status
    /// The header fields, `Content-Type` included.
    public var headerFields: HTTPFields
    /// The body bytes; an empty body is delivered as no body.
    public var body: Data
    /// How long the transport waits before answering; `nil` for no wait.
    public var delay: Duration?
    /// When set, the transport throws this error (after the delay) instead of answering.
    public var error: (any Error & Sendable)?

    /// Creates a response.
    public init(
        status: HTTPResponse.Status = .ok,
        headerFields: HTTPFields = [:],
        body: Data = Data(),
        delay: Duration? = nil
    ) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.delay = delay
        self.error = nil
    }

    /// A response that makes the transport throw `error` instead of answering.
    public static func failure(_ error: any Error & Sendable) -> MockResponse {
        var response = MockResponse()
        response.error = error
        return response
    }

    /// The same response, answered (or thrown) after `delay`.
    public func delayed(by delay: Duration) -> MockResponse {
        var response = self
        response.delay = delay
        return response
    }

    /// The same response with the header field `name` set to `value`.
    public func header(_ name: HTTPField.Name, _ value: String) -> MockResponse {
        var response = self
        response.headerFields[name] = value
        return response
    }
}
