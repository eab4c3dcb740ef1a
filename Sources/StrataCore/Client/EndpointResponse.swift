import Foundation
import HTTPTypes

/// A parsed value together with everything that produced it.
public struct EndpointResponse<Value> {
    /// The parsed value.
    public let value: Value
    /// The request as it was sent (after the endpoint's encoding, before middleware).
    public let request: HTTPRequest
    /// The response head.
    public let head: HTTPResponse
    /// The raw body bytes.
    public let body: Data
    /// How long the call took, from encoding to parsed value.
    public let duration: Duration
    /// What the call's steps reported, under their features' keys (see
    /// ``MiddlewareContext/record(_:for:)``); features read them back with accessors of
    /// their own (`response.retry`, `response.cache`).
    public internal(set) var records = CallValues()

    /// A response from its parts, with no records: for a feature that runs a call of its
    /// own (a resumable upload's last answer).
    package init(value: Value, request: HTTPRequest, head: HTTPResponse, body: Data, duration: Duration) {
        self.value = value
        self.request = request
        self.head = head
        self.body = body
        self.duration = duration
    }
}

extension EndpointResponse: Sendable where Value: Sendable {}
