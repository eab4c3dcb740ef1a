import HTTPTypes
import Strata

// A feature Strata does not know, built from Strata's public API alone: an endpoint asks
// for a tag (an option), an outer step stamps it for an inner one (a per-call value), the
// inner step sends it as a header, and the outer step reports what it sent and the status
// it saw (a record on the response and on the error). The outer step may pace calls, and
// bounds that wait by the call's deadline on the client's timer.

/// What an endpoint asks of the feature: the tag to send.
enum TagKey: CallValueKey {
    typealias Value = String
}

/// What the outer step passes along the call to the inner one: the tag, stamped.
enum StampKey: CallValueKey {
    typealias Value = String
}

/// What the feature reports for a call: the tag it sent and the status it saw.
public struct TagRecord: Sendable, Hashable {
    /// The tag, as the endpoint asked for it.
    public var sent: String
    /// The response's status code; `nil` when no response came.
    public var status: Int?

    /// Creates a record.
    public init(sent: String, status: Int?) {
        self.sent = sent
        self.status = status
    }
}

/// Where a call keeps its ``TagRecord``.
enum TagRecordKey: CallValueKey {
    typealias Value = TagRecord

    static func describe(_ record: TagRecord) -> String? { "tagged \(record.sent)" }
}

extension Endpoint {
    /// Tags this call: the tag goes out as the `X-Tag` header, stamped.
    public func tag(_ tag: String) -> Endpoint { option(TagKey.self, tag) }
}

extension EndpointResponse {
    /// What the tag feature reported.
    public var tag: TagRecord? { records[TagRecordKey.self] }
}

extension StrataError {
    /// What the tag feature reported.
    public var tag: TagRecord? { records[TagRecordKey.self] }
}

/// The outer step: reads the endpoint's option, waits `pace` first (within the call's
/// deadline), stamps the tag for the inner step, and records what came back.
public struct TagStep: Middleware {
    /// How long a tagged call waits before it is sent.
    public var pace: Duration

    /// Creates the step.
    public init(pace: Duration = .zero) {
        self.pace = pace
    }

    /// Its only wait is bounded by the call's deadline, so calls may run inline.
    public var boundsItsWaits: Bool { true }

    /// Stamps and records tagged calls; passes untagged ones through.
    public func intercept(
        _ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        guard let tag = context.options[TagKey.self] else { return try await next(request, body, context) }
        context.record(TagRecord(sent: tag, status: nil), for: TagRecordKey.self)
        if pace > .zero {
            let pace = self.pace
            try await Deadline.within(context.deadline) { try await Deadline.sleep(for: pace) }
        }
        var context = context
        context.options[StampKey.self] = "stamped-\(tag)"
        let (response, responseBody) = try await next(request, body, context)
        context.updateRecord(TagRecordKey.self) { $0?.status = response.status.code }
        return (response, responseBody)
    }
}

/// The inner step: puts the stamp the outer step passed along on the request.
public struct StampHeaderStep: Middleware {
    /// Creates the step.
    public init() {}

    /// It never waits.
    public var boundsItsWaits: Bool { true }

    /// Adds `X-Tag` when the call carries a stamp.
    public func intercept(
        _ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        var request = request
        if let stamp = context.options[StampKey.self] { request.headerFields[HTTPField.Name("X-Tag")!] = stamp }
        return try await next(request, body, context)
    }
}
