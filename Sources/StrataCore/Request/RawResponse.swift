import Foundation
import HTTPTypes

/// A response as it arrived: the HTTP head and the whole body, before parsing.
public struct RawResponse: Sendable {
    /// Status and header fields.
    public var head: HTTPResponse
    /// The body bytes, empty when there were none.
    public var body: Data

    /// Creates a raw response.
    public init(head: HTTPResponse, body: Data) {
        self.head = head
        self.body = body
    }
}
