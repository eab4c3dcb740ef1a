import Foundation
import HTTPTypes

/// The one error a ``Networker`` throws. ``kind`` says which stage failed; the
/// request, the response head and a bounded snippet of the body come along where
/// they exist, so a log line is enough to understand what happened.
public struct StrataError: Error, Sendable, CustomStringConvertible {
    /// The stage that failed, with its details.
    public enum Kind: Sendable {
        /// The route could not produce a URL.
        case invalidURL(any Error)
        /// The parameters could not be encoded.
        case encoding(ParameterEncodingError)
        /// No complete response arrived: refused, timed out, lost, TLS…
        case transport(TransportError)
        /// The task or the load handle was cancelled.
        case cancelled
        /// The status code is not one the endpoint accepts.
        case unacceptableStatus(HTTPResponse.Status)
        /// The `Content-Type` is not one the endpoint accepts (`nil` when missing).
        case unacceptableContentType(String?)
        /// The body is larger than the client's limit.
        case bodyTooLarge(limit: Int)
        /// The body could not be decoded into the raw-layer model or `Decodable` type.
        case decoding(MappingError)
        /// The DTO could not be mapped into the application model.
        case mapping(MappingError)
        /// A middleware step failed on its own account (for example a token provider).
        case middleware(any Error)
    }

    /// How many bytes of a body an error keeps.
    public static let snippetLimit = 512

    /// The stage that failed.
    public let kind: Kind
    /// The request as it was sent, when it got that far.
    public let request: HTTPRequest?
    /// The response head, when one arrived.
    public let response: HTTPResponse?
    /// Up to ``snippetLimit`` bytes of the response body, as UTF-8 text.
    public let bodySnippet: String?

    /// Creates an error; `body` is cut down to ``snippetLimit`` bytes.
    public init(_ kind: Kind, request: HTTPRequest? = nil, response: HTTPResponse? = nil, body: Data? = nil) {
        self.kind = kind
        self.request = request
        self.response = response
        self.bodySnippet = body.flatMap { $0.isEmpty ? nil : String(decoding: $0.prefix(Self.snippetLimit), as: UTF8.self) }
    }

    /// The response status, when a response arrived.
    public var status: HTTPResponse.Status? { response?.status }

    /// `true` when the request was cancelled.
    public var isCancelled: Bool {
        if case .cancelled = kind { return true }
        return false
    }

    /// `true` when the deadline passed.
    public var isTimeout: Bool {
        if case .transport(let error) = kind { return error.kind == .timedOut }
        return false
    }

    /// `GET http://host/path → 404 Not Found: unacceptable status 404; body: …`
    public var description: String {
        var parts: [String] = []
        if let request {
            parts.append("\(request.method.rawValue) \(request.url?.absoluteString ?? request.path ?? "")")
        }
        if let response {
            parts.append("→ \(response.status.code) \(response.status.reasonPhrase)")
        }
        let head = parts.joined(separator: " ")
        let detail = kindDescription
        var text = head.isEmpty ? detail : "\(head): \(detail)"
        if let bodySnippet { text += "; body: \(bodySnippet)" }
        return text
    }

    private var kindDescription: String {
        switch kind {
        case .invalidURL(let error): "invalid URL: \(error)"
        case .encoding(let error): "\(error)"
        case .transport(let error): "transport failed: \(error)"
        case .cancelled: "cancelled"
        case .unacceptableStatus(let status): "unacceptable status \(status.code)"
        case .unacceptableContentType(let type): "unacceptable content type \(type ?? "(none)")"
        case .bodyTooLarge(let limit): "response body larger than \(limit) bytes"
        case .decoding(let error): "decoding failed: \(error)"
        case .mapping(let error): "mapping failed: \(error)"
        case .middleware(let error): "middleware failed: \(error)"
        }
    }
}
