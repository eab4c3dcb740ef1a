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
    /// How long the exchange took, from encoding to parsed value.
    public let duration: Duration
    /// How many attempts the call made and why it stopped, when the client has a
    /// ``RetryMiddleware``.
    public let retry: RetrySummary?
    /// Where the response came from (network, cache, revalidated) and how old it was,
    /// when the client has a ``CacheMiddleware``.
    public let cache: CacheOutcome?
}

extension EndpointResponse: Sendable where Value: Sendable {}
