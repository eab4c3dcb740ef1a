import Foundation
import HTTPTypes
import Strata

extension URLSessionTransport {
    /// The response head and its body: `nil` for `HEAD` requests and `204`/`304`
    /// responses, which have none; otherwise the buffered bytes, possibly empty.
    static func makeResponse(
        _ outcome: (HTTPResponse, Data),
        method: HTTPRequest.Method
    ) -> (HTTPResponse, MessageBody?) {
        let (head, data) = outcome
        if method == .head || head.status == .noContent || head.status == .notModified {
            return (head, nil)
        }
        return (head, MessageBody(data))
    }
}
