import HTTPTypes
import Strata

/// A request as it went to the transport and the status that came back.
public struct RecordedExchange: Sendable, Equatable {
    /// The method, `GET`.
    public var method: String
    /// The path and query, `/users?page=1&search=an`.
    public var target: String
    /// The response status, or `nil` when no response arrived.
    public var status: Int?

    /// Creates a record.
    public init(method: String, target: String, status: Int?) {
        self.method = method
        self.target = target
        self.status = status
    }
}

/// Keeps the last exchange a ``ExchangeRecorder`` saw.
actor ExchangeLog {
    private(set) var last: RecordedExchange?

    func reset() { last = nil }

    func begin(_ exchange: RecordedExchange) { last = exchange }

    func finish(status: Int) { last?.status = status }
}

/// A middleware that notes every request and its status for the transcript, whichever
/// client API sent it (`send`, `response(for:)` or `load(_:completion:)`).
struct ExchangeRecorder: Middleware {
    let log: ExchangeLog

    func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        await log.begin(
            RecordedExchange(method: request.method.rawValue, target: Self.target(of: request), status: nil))
        let (response, responseBody) = try await next(request, body, context)
        await log.finish(status: response.status.code)
        return (response, responseBody)
    }

    /// The path and query of the request's URL.
    static func target(of request: HTTPRequest) -> String {
        guard let url = request.url else { return request.path ?? "" }
        let path = url.path.isEmpty ? "/" : url.path
        return url.query.map { "\(path)?\($0)" } ?? path
    }
}
