import Foundation
import HTTPTypes

/// A request ready for a transport: the HTTP head and the body bytes.
public struct EncodedRequest: Sendable {
    /// Method, URL and header fields.
    public var head: HTTPRequest
    /// The body, or `nil` for none.
    public var body: MessageBody?

    /// Creates an encoded request.
    public init(head: HTTPRequest, body: MessageBody?) {
        self.head = head
        self.body = body
    }
}
