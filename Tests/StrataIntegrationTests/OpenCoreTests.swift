import Foundation
import HTTPTypes
import Strata
import StrataTestServer
import Testing

// A feature that none of Strata's files knows, written as an app would write one, with
// Strata's public API only (this file imports Strata without @testable): an endpoint
// option set with a modifier, a value passed along the call from an outer step to an
// inner one, and a record read back from the response and from the error.

/// What an endpoint asks of the feature: the tag to send.
enum TagKey: CallValueKey {
    typealias Value = String
}

/// What the outer step passes along the call for the inner one: the tag, stamped.
enum StampKey: CallValueKey {
    typealias Value = String
}

/// What the feature reports back: the tag it sent and the status it saw.
struct TagRecord: Sendable, Hashable {
    var sent: String
    var status: Int?
}

enum TagRecordKey: CallValueKey {
    typealias Value = TagRecord

    static func describe(_ record: TagRecord) -> String? { "tagged \(record.sent)" }
}

extension Endpoint {
    /// Tags this call.
    func tag(_ tag: String) -> Endpoint { option(TagKey.self, tag) }
}

extension EndpointResponse {
    /// What the tag feature reported.
    var tag: TagRecord? { records[TagRecordKey.self] }
}

extension StrataError {
    /// What the tag feature reported.
    var tag: TagRecord? { records[TagRecordKey.self] }
}

/// The outer step: reads the endpoint's option, stamps it for the inner step, and
/// records what came back.
struct TagStep: Middleware {
    var boundsItsWaits: Bool { true }

    func intercept(
        _ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        guard let tag = context.options[TagKey.self] else { return try await next(request, body, context) }
        var context = context
        context.options[StampKey.self] = "stamped-\(tag)"
        context.record(TagRecord(sent: tag, status: nil), for: TagRecordKey.self)
        let (response, responseBody) = try await next(request, body, context)
        context.updateRecord(TagRecordKey.self) { $0?.status = response.status.code }
        return (response, responseBody)
    }
}

/// The inner step: puts the stamp the outer step passed along on the request.
struct StampHeaderStep: Middleware {
    var boundsItsWaits: Bool { true }

    func intercept(
        _ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        var request = request
        if let stamp = context.options[StampKey.self] { request.headerFields[HTTPField.Name("X-Tag")!] = stamp }
        return try await next(request, body, context)
    }
}

/// A transport that notes whether each request was sent from the task that made the
/// call (a client runs a call inline only when every step bounds its waits).
struct TaskNotingTransport: Transport {
    let base: any Transport
    let callerTask: @Sendable () -> UnsafeCurrentTask?
    let sentInline: Locked<[Bool]>

    var enforcesDeadline: Bool { base.enforcesDeadline }

    func send(_ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?) async throws -> (
        HTTPResponse, MessageBody?
    ) {
        let current = withUnsafeCurrentTask { $0 }
        sentInline.withLock { $0.append(current != nil && current == callerTask()) }
        return try await base.send(request, body: body, deadline: deadline)
    }
}

@Suite struct OpenCoreTests {
    @Test(arguments: TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func aFeatureStrataDoesNotKnowPlugsIn(_ kind: TransportKind) async throws {
        try await TestServer.with { server in
            try await kind.with { transport in
                let networker = Networker(transport: transport, middleware: [TagStep(), StampHeaderStep()])
                let echo = Endpoint(
                    RequestDescription(route: try server.baseURL + "echo/tagged"), decoding: EchoReply.self)

                let tagged = try await networker.response(for: echo.tag("x"))
                #expect(tagged.value.headers["x-tag"] == "stamped-x")
                #expect(tagged.tag == TagRecord(sent: "x", status: 200))

                let untagged = try await networker.response(for: echo)
                #expect(untagged.value.headers["x-tag"] == nil)
                #expect(untagged.tag == nil)

                // The option survives `map`; the record reaches the error, and its description.
                let missing = Endpoint(
                    RequestDescription(route: try server.baseURL + "status/404"), decoding: EchoReply.self
                )
                .map { $0.path }.tag("y")
                let error = await #expect(throws: StrataError.self) { try await networker.send(missing) }
                #expect(error?.kind == .unacceptableStatus)
                #expect(error?.tag == TagRecord(sent: "y", status: 404))
                #expect(error.map { "\($0)".contains("(tagged y)") } == true)
            }
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    @Test func anAppStepThatBoundsItsWaitsKeepsCallsInline() async throws {
        try await TestServer.with { server in
            try await TransportKind.asyncHTTPClient.with { transport in
                struct Unbounded: Middleware {
                    func intercept(
                        _ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext,
                        next: MiddlewareNext
                    ) async throws -> (HTTPResponse, MessageBody?) {
                        try await next(request, body, context)
                    }
                }
                let caller = Locked<UnsafeCurrentTask?>(nil)
                let sentInline = Locked<[Bool]>([])
                let noting = TaskNotingTransport(
                    base: transport, callerTask: { caller.withLock { $0 } }, sentInline: sentInline)
                let endpoint = Endpoint(
                    RequestDescription(route: try server.baseURL + "echo/inline"), decoding: EchoReply.self
                ).tag("z")
                for middleware in [[TagStep(), StampHeaderStep()], [TagStep(), Unbounded()]] as [[any Middleware]] {
                    let networker = Networker(transport: noting, middleware: middleware)
                    caller.withLock { $0 = withUnsafeCurrentTask { $0 } }
                    let echo = try await networker.send(endpoint)
                    #expect(echo.path == "/echo/inline")
                }
                #expect(sentInline.withLock { $0 } == [true, false])
            }
        }
    }
}
