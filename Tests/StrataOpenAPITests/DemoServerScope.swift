import Foundation
import Strata
import StrataAsyncHTTPClient
import StrataDemoServer
import StrataOpenAPI

/// Runs `body` with a fresh demo server and an AsyncHTTPClient transport, releasing both
/// afterwards, whether `body` throws or not.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
func withDemoServer<T>(_ body: (DemoServer, AsyncHTTPClientTransport) async throws -> T) async throws -> T {
    let server = try await DemoServer.start()
    let transport = AsyncHTTPClientTransport()
    let result: Result<T, any Error>
    do {
        result = .success(try await body(server, transport))
    } catch {
        result = .failure(error)
    }
    try await transport.shutdown()
    await server.shutdown()
    return try result.get()
}

/// What a step saw of the calls that passed through it: the OpenAPI operation and the
/// `openapi.operation_id` metadata of the call's logger.
struct SeenCall: Sendable, Equatable {
    var operationID: String?
    var logMetadata: String?
    var attempt: Int
    var path: String?
}

/// A step that records what it sees of each attempt (placed after the retry step, it sees
/// every attempt).
struct RecordingStep: Middleware {
    let seen = Locked<[SeenCall]>([])

    func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        let call = SeenCall(
            operationID: context.openAPIOperationID,
            logMetadata: context.logger[metadataKey: "openapi.operation_id"].map { "\($0)" },
            attempt: context.attempt, path: request.path)
        seen.withLock { $0.append(call) }
        return try await next(request, body, context)
    }

    var calls: [SeenCall] { seen.withLock { $0 } }
}
