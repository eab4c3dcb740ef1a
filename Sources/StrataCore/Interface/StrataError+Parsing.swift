import Foundation
import HTTPTypes

extension StrataError {
    /// The one mapping from a parse failure to a call's error, for every kind of call (an
    /// endpoint's response, an event, a WebSocket message, a gRPC message):
    /// ``Kind/mapping`` when the app layer failed, ``Kind/decoding`` otherwise, with the
    /// ``MappingError`` (`error` itself, or one made for `type` from it).
    /// - Parameters:
    ///   - error: what the parse threw.
    ///   - type: the type being parsed.
    ///   - request: the call's request, when there is one.
    ///   - response: the response head, when there is one.
    ///   - body: the bytes that did not parse; the first `bodyLimit` are kept.
    ///   - bodyLimit: how many bytes of `body` to keep.
    package init(
        parsing error: any Error, as type: Any.Type, request: HTTPRequest? = nil, response: HTTPResponse? = nil,
        body: Data, bodyLimit: Int = StrataError.defaultErrorBodyLimit
    ) {
        let mapping = MappingError(type: type, underlying: error)
        self.init(
            mapping.layer == .model ? .mapping : .decoding, underlying: mapping.underlying ?? mapping,
            request: request, response: response, body: body, bodyLimit: bodyLimit, mapping: mapping)
    }
}
