import Foundation
import HTTPTypes

/// Which responses count as success: status codes and, optionally, content types.
///
/// The default accepts 2xx with any content type. Responses that cannot have a body
/// (`HTTPResponse.cannotHaveBody(respondingTo:)`: 1xx, 204, 205, 304, answers to
/// HEAD) pass the content-type check when their body is empty.
public struct ResponseValidation: Sendable {
    /// The status codes accepted.
    public var acceptableStatusCodes: Set<Int>
    /// The media types accepted (`application/json`, `application/*`, `*/*`);
    /// `nil` accepts any. Parameters such as `charset` are ignored.
    public var acceptableContentTypes: [String]?

    /// Creates a validation rule.
    public init(statusCodes: some Sequence<Int> = 200..<300, contentTypes: [String]? = nil) {
        self.acceptableStatusCodes = Set(statusCodes)
        self.acceptableContentTypes = contentTypes
    }

    /// 2xx, any content type.
    public static var `default`: ResponseValidation { ResponseValidation() }

    /// Accepts every response; status and type are left to the parse function.
    public static var acceptAll: ResponseValidation { ResponseValidation(statusCodes: 100..<600) }

    /// Checks `response`.
    /// - Parameters:
    ///   - response: the response head to check.
    ///   - body: the response body, kept in the error when the check fails.
    ///   - request: the request the response answers, named in the error.
    ///   - errorBodyLimit: how many bytes of `body` the error keeps.
    /// - Throws: ``StrataError`` of kind ``StrataError/Kind/unacceptableStatus`` or
    ///   ``StrataError/Kind/unacceptableContentType``, carrying the body.
    public func validate(
        _ response: HTTPResponse,
        body: Data,
        for request: HTTPRequest,
        errorBodyLimit: Int = StrataError.defaultErrorBodyLimit
    ) throws(StrataError) {
        if let failure = failure(of: response, bodyIsEmpty: body.isEmpty, for: request) {
            throw StrataError(failure, request: request, response: response, body: body, bodyLimit: errorBodyLimit)
        }
    }

    /// Why `response` is not acceptable, or `nil` when it is.
    package func failure(of response: HTTPResponse, bodyIsEmpty: Bool, for request: HTTPRequest) -> StrataError.Kind? {
        guard acceptableStatusCodes.contains(response.status.code) else {
            return .unacceptableStatus
        }
        guard let acceptableContentTypes else { return nil }
        if bodyIsEmpty && response.cannotHaveBody(respondingTo: request.method) { return nil }
        let contentType = response.headerFields[.contentType]
        guard let contentType, Self.matches(contentType, any: acceptableContentTypes) else {
            return .unacceptableContentType
        }
        return nil
    }

    package static func matches(_ contentType: String, any patterns: [String]) -> Bool {
        let mediaType = Self.mediaType(contentType)
        let (type, subtype) = Self.split(mediaType)
        return patterns.contains { pattern in
            let (patternType, patternSubtype) = Self.split(Self.mediaType(pattern))
            return (patternType == "*" || patternType == type) && (patternSubtype == "*" || patternSubtype == subtype)
        }
    }

    private static func mediaType(_ value: String) -> Substring {
        let essence = value.split(separator: ";", maxSplits: 1).first ?? ""
        return Substring(essence.trimmingCharacters(in: .whitespaces).lowercased())
    }

    private static func split(_ mediaType: Substring) -> (Substring, Substring) {
        let parts = mediaType.split(separator: "/", maxSplits: 1)
        return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
    }
}
