import Foundation
import HTTPTypes

/// The one error a ``Networker`` throws. ``kind`` says which stage failed; the
/// request, the response head, the response body (bounded) and the underlying error
/// come along where they exist, so a log line is enough to understand what happened
/// and the app can decode its own error type from the body.
///
/// ```swift
/// do {
///     let user = try await networker.send(endpoint)
///     print(user)
/// } catch where error.kind == .unacceptableStatus {
///     let apiError = try error.decodeBody(as: APIError.self)  // the server's JSON error
///     print(apiError)
/// } catch where error.isTimeout {
///     print("timed out \(error.phase.map { "while \($0)" } ?? "")")
/// } catch {
///     print(error)  // one line: the stage, the request, the status, a body snippet
/// }
/// ```
///
/// Stages:
/// - ``Kind/invalidURL``: the route could not produce a URL (``underlying`` is the
///   route's error, usually ``URLRouteError``);
/// - ``Kind/encoding``: the parameters could not be encoded (``ParameterEncodingError``);
/// - ``Kind/middleware``: a middleware step failed on its own account; ``middleware``
///   names its type and ``underlying`` is the error it threw;
/// - ``Kind/transport``: no complete response arrived (``transportError``); timeouts are
///   transport failures of kind ``TransportError/Kind/timedOut`` (see ``isTimeout``);
/// - ``Kind/cancelled``: the task or the load handle was cancelled;
/// - ``Kind/unacceptableStatus``, ``Kind/unacceptableContentType``: validation refused
///   the response (see ``status``, ``body``);
/// - ``Kind/bodyTooLarge``: the body is larger than the client's limit;
/// - ``Kind/decoding``, ``Kind/mapping``: the parse function failed reading the raw
///   layer or mapping into the app model; ``underlying`` is the error it threw (your
///   own error type stays that value) and ``mappingError`` names the type and path;
/// - stages a feature adds for its own failures (a redirect not followed, an open
///   circuit, a cache miss), declared with the feature.
public struct StrataError: Error, Sendable, CustomStringConvertible {
    /// The stage that failed.
    ///
    /// A struct with static members rather than an enum, so that new stages can be
    /// added without breaking callers: compare with `==`, or use the members as patterns
    /// in a `switch` with a `default` branch. A feature declares its own stages as static
    /// members in an extension. The details of a stage are properties of ``StrataError``.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The stage's name, for example `unacceptableStatus`.
        public let description: String
        /// The failure's phrase in an error's description, from the error.
        private let phrase: (@Sendable (StrataError) -> String)?

        /// Creates a stage.
        /// - Parameters:
        ///   - name: the stage's name; two kinds with the same name are equal.
        ///   - phrase: what an error of this stage says after the request and status in its
        ///     description; by default `NAME failed: UNDERLYING`.
        public init(_ name: String, phrase: (@Sendable (StrataError) -> String)? = nil) {
            self.description = name
            self.phrase = phrase
        }

        /// Whether two kinds name the same stage.
        public static func == (lhs: Kind, rhs: Kind) -> Bool { lhs.description == rhs.description }

        /// Hashes the stage's name.
        public func hash(into hasher: inout Hasher) { hasher.combine(description) }

        /// The phrase for `error`, when the stage has one of its own.
        func phrase(for error: StrataError) -> String? { phrase?(error) }

        /// The route could not produce a URL.
        public static let invalidURL = Kind("invalidURL")
        /// The parameters could not be encoded.
        public static let encoding = Kind("encoding")
        /// No complete response arrived: refused, timed out, lost, TLS…
        public static let transport = Kind("transport")
        /// The task or the load handle was cancelled.
        public static let cancelled = Kind("cancelled")
        /// The status code is not one the endpoint accepts.
        public static let unacceptableStatus = Kind("unacceptableStatus")
        /// The `Content-Type` is not one the endpoint accepts.
        public static let unacceptableContentType = Kind("unacceptableContentType")
        /// The body is larger than the client's limit.
        public static let bodyTooLarge = Kind("bodyTooLarge")
        /// The body could not be decoded into the raw-layer model or `Decodable` type.
        public static let decoding = Kind("decoding")
        /// The DTO could not be mapped into the application model.
        public static let mapping = Kind("mapping")
        /// A middleware step failed on its own account (for example a token provider).
        public static let middleware = Kind("middleware")
    }

    /// Where in the call a transport failure happened, when it is known.
    public struct Phase: Hashable, Sendable, CustomStringConvertible {
        /// A short phrase for logs, for example `reading the body`.
        public let description: String

        private init(_ description: String) {
            self.description = description
        }

        /// Sending the request and waiting for the response head.
        public static let awaitingHead = Phase("waiting for the response head")
        /// Reading the response body.
        public static let readingBody = Phase("reading the body")
    }

    /// How many bytes of a body ``bodySnippet`` shows.
    public static let snippetLimit = 512
    /// How many bytes of a failed response's body an error keeps by default (64 KiB);
    /// see ``Networker/Configuration/errorBodyLimit``.
    public static let defaultErrorBodyLimit = 64 * 1024

    /// The stage that failed.
    public let kind: Kind
    /// The error behind the failure: the transport's ``TransportError``, the route's or
    /// encoder's error, the error a middleware or a parse function threw (as the value
    /// it threw), or `nil` when the stage says it all (a status, a cancellation).
    public let underlying: (any Error)?
    /// The request as it was sent, when it got that far.
    public let request: HTTPRequest?
    /// The response head, when one arrived.
    public let response: HTTPResponse?
    /// The first bytes of the response body (at most the error-body limit), when one
    /// arrived; see ``decodeBody(as:using:)``.
    public let body: Data?
    /// Whether ``body`` was cut at the error-body limit.
    public let isBodyTruncated: Bool
    /// What the parse function's failure was about (type, coding path, layer), for
    /// ``Kind/decoding`` and ``Kind/mapping``.
    public let mappingError: MappingError?
    /// For ``Kind/middleware``: the name of the middleware type that failed.
    public let middleware: String?
    /// Where the call was when it ended, for a transport failure (a timeout, a lost
    /// connection) and a cancellation, when known.
    public let phase: Phase?
    /// What the call's steps reported, under their features' keys (see
    /// ``MiddlewareContext/record(_:for:)``); features read them back with accessors of
    /// their own (`error.retry`, `error.cache`).
    public internal(set) var records = CallValues()

    /// Creates an error.
    /// - Parameters:
    ///   - kind: the stage that failed.
    ///   - underlying: the error behind it.
    ///   - request: the request as it was sent.
    ///   - response: the response head.
    ///   - body: the response body; only its first `bodyLimit` bytes are kept.
    ///   - bodyLimit: how many bytes of `body` to keep.
    ///   - mapping: the context of a parse failure, for ``Kind/decoding`` and ``Kind/mapping``.
    ///   - middleware: the failing middleware's type name, for ``Kind/middleware``.
    ///   - phase: where a transport failure happened.
    public init(
        _ kind: Kind,
        underlying: (any Error)? = nil,
        request: HTTPRequest? = nil,
        response: HTTPResponse? = nil,
        body: Data? = nil,
        bodyLimit: Int = StrataError.defaultErrorBodyLimit,
        mapping: MappingError? = nil,
        middleware: String? = nil,
        phase: Phase? = nil
    ) {
        self.kind = kind
        self.underlying = underlying
        self.request = request
        self.response = response
        let kept = body.flatMap { $0.isEmpty ? nil : $0 }
        self.body = kept.map { $0.count > bodyLimit ? Data($0.prefix(max(bodyLimit, 0))) : $0 }
        self.isBodyTruncated = (kept?.count ?? 0) > bodyLimit
        self.mappingError = mapping
        self.middleware = middleware
        self.phase = phase
    }

    /// The response status, when a response arrived.
    public var status: HTTPResponse.Status? { response?.status }

    /// The response status code, when a response arrived: for comparing with an `Int`
    /// value (`error.statusCode == expected`), which ``status`` allows only for literals.
    public var statusCode: Int? { response?.status.code }

    /// The transport's failure, for ``Kind/transport``.
    public var transportError: TransportError? { underlying as? TransportError }

    /// Up to ``snippetLimit`` bytes of the response body, as UTF-8 text.
    public var bodySnippet: String? {
        body.map { String(decoding: $0.prefix(Self.snippetLimit), as: UTF8.self) }
    }

    /// `true` when the request was cancelled.
    public var isCancelled: Bool { kind == .cancelled }

    /// `true` when the deadline passed (the client's or the transport's).
    public var isTimeout: Bool { Self.isTimeout(self) }

    /// Whether `error` says a call ran out of time: a ``TransportError`` of kind
    /// ``TransportError/Kind/timedOut``, as a transport or step throws it or inside a
    /// ``StrataError``. Whether a deadline has passed is
    /// ``MiddlewareContext/deadlineHasPassed``.
    public static func isTimeout(_ error: any Error) -> Bool {
        ((error as? TransportError) ?? (error as? StrataError)?.transportError)?.kind == .timedOut
    }

    /// Decodes the response body into the app's own error type, for example the JSON
    /// a server sends with a `422`.
    /// - Throws: ``MappingError`` naming `T` when there is no body, the body was cut at
    ///   the error-body limit, or it does not decode.
    public func decodeBody<T: Decodable>(as type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        guard let body else { throw MappingError(type: T.self, description: "the response had no body") }
        guard !isBodyTruncated else {
            throw MappingError(
                type: T.self, description: "the body was cut at \(body.count) bytes (the error-body limit)")
        }
        do {
            return try decoder.decode(T.self, from: body)
        } catch {
            throw MappingError(type: T.self, underlying: error)
        }
    }

    /// `GET http://host/path → 404 Not Found: unacceptable status 404; body: …`
    public var description: String {
        var parts: [String] = []
        if let request {
            parts.append("\(request.method.rawValue) \(request.absoluteURLString)")
        }
        if let response {
            let reason = response.status.reasonPhrase
            parts.append("→ \(response.status.code)" + (reason.isEmpty ? "" : " \(reason)"))
        }
        let head = parts.joined(separator: " ")
        let detail = kindDescription
        var text = head.isEmpty ? detail : "\(head): \(detail)"
        for phrase in records.descriptions { text += " (\(phrase))" }
        if let bodySnippet { text += "; body: \(bodySnippet)" }
        return text
    }

    /// This error with `records` added, its own winning where both have a key.
    package func withRecords(_ records: CallValues) -> StrataError {
        guard !records.isEmpty else { return self }
        var error = self
        error.records = records.merging(self.records)
        return error
    }

    private var kindDescription: String {
        let cause = underlying.map { String(describing: $0) }
        switch kind {
        case .invalidURL: return "invalid URL: \(cause ?? "")"
        case .encoding: return cause ?? "encoding failed"
        case .transport:
            let during = phase.map { " while \($0)" } ?? ""
            return "transport failed\(during): \(cause ?? "")"
        case .cancelled: return "cancelled"
        case .unacceptableStatus: return "unacceptable status \(status?.code ?? 0)"
        case .unacceptableContentType:
            return "unacceptable content type \(response?.headerFields[.contentType] ?? "(none)")"
        case .bodyTooLarge: return "response body too large: \(cause ?? "")"
        case .decoding: return "decoding failed: \(mappingError?.description ?? cause ?? "")"
        case .mapping: return "mapping failed: \(mappingError?.description ?? cause ?? "")"
        case .middleware: return "middleware \(middleware ?? "?") failed: \(cause ?? "")"
        default: return kind.phrase(for: self) ?? "\(kind) failed" + (cause.map { ": \($0)" } ?? "")
        }
    }
}

extension HTTPRequest {
    /// `scheme://authority/path?query` for logs and descriptions, built from the
    /// pseudo-header fields without parsing a URL; the path alone when there is no
    /// scheme or authority.
    package var absoluteURLString: String {
        let path = self.path ?? ""
        guard let scheme, let authority else { return path }
        return "\(scheme)://\(authority)\(path)"
    }
}
