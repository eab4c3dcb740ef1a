import Foundation
import HTTPTypes
import Strata
import StrataTestServer
import Testing

// A feature Strata does not know, written with its public API only, lives in a package of
// its own: Examples/TagFeature (built and tested by .ci/run). What stays here needs the
// package's own parts: which task a request was sent from.

/// A step of an app's that bounds its waits (it never waits).
struct BoundedStep: Middleware {
    var boundsItsWaits: Bool { true }

    func intercept(
        _ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        try await next(request, body, context)
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
                    RequestDescription(route: try server.baseURL + "echo/inline"), decoding: EchoReply.self)
                for middleware in [[BoundedStep(), BoundedStep()], [BoundedStep(), Unbounded()]] as [[any Middleware]] {
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
