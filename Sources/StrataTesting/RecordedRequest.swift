import Foundation
import HTTPTypes

/// A request as a ``MockTransport`` received it, with its whole body.
public struct RecordedRequest: Sendable {
    /// The request head: method, URL pseudo-fields and header fields.
    public let head: HTTPRequest
    /// The body bytes, empty when the request had no body.
    public let body: Data

    /// Creates a recorded request.
    public init(head: HTTPRequest, body: Data) {
        self.head = head
        self.body = body
    }

    /// The HTTP method.
    public var method: HTTPRequest.Method { head.method }

    /// The full URL, when the request has a scheme, authority and path.
    public var url: URL? { head.url }

    /// The header fields.
    public var headerFields: HTTPFields { head.headerFields }

    /// The URL path, still percent-encoded, without the query: `/users/1`.
    public var path: String { MockRequestTarget(head.path).path }

    /// The query items, percent-decoded (and `+` read as a space), in order.
    public var queryItems: [URLQueryItem] {
        MockRequestTarget(head.path).queryItems.map { URLQueryItem(name: $0.name, value: $0.value) }
    }

    /// The body read as UTF-8, for assertions on text and JSON bodies.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
