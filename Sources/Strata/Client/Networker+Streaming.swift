import Foundation
import HTTPTypes

extension Networker {
    /// Sends the endpoint's request and returns the response head with its body
    /// unread, for large or endless responses. The endpoint's parse function is not used.
    ///
    /// The status is validated before returning (content types are not, as that
    /// needs the body). Whether the body really streams depends on the transport:
    /// AsyncHTTPClient streams, URLSession on Linux delivers it whole.
    /// - Throws: ``StrataError`` naming the stage that failed.
    public func stream<Response>(_ endpoint: Endpoint<Response>) async throws(StrataError) -> (HTTPResponse, MessageBody) {
        let encoded = try encode(endpoint)
        let context = makeContext(for: endpoint, start: .now)
        let head: HTTPResponse
        let body: MessageBody?
        do {
            (head, body) = try await chain(encoded.head, encoded.body, context)
        } catch {
            throw Self.classify(error, request: encoded.head, response: nil)
        }
        var statusOnly = endpoint.validation ?? configuration.validation
        statusOnly.acceptableContentTypes = nil
        if let failure = statusOnly.failure(of: head, bodyIsEmpty: true, for: encoded.head) {
            let snippet = await body?.prefix(StrataError.snippetLimit)
            throw StrataError(failure, request: encoded.head, response: head, body: snippet)
        }
        return (head, body ?? MessageBody(Data()))
    }
}
