import Foundation
import HTTPTypes
import Strata

extension URLSessionTransport {
    /// The response head and its body: `nil` when the response cannot have one
    /// (``HTTPResponse/cannotHaveBody(respondingTo:)``); otherwise the buffered bytes,
    /// possibly empty.
    static func makeResponse(
        _ outcome: (HTTPResponse, Data),
        method: HTTPRequest.Method
    ) -> (HTTPResponse, MessageBody?) {
        let (head, data) = outcome
        if head.cannotHaveBody(respondingTo: method) {
            return (head, nil)
        }
        return (head, MessageBody(data))
    }
}
