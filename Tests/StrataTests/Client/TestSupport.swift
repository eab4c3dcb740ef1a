import Foundation
import HTTPTypes
import Logging
import StrataTestSupport

@testable import Strata
@testable import StrataCore

/// A clock that moves only when told to.
final class ManualClock: Sendable {
    private let instant = Locked(ContinuousClock.now)

    var now: ContinuousClock.Instant { instant.withLock { $0 } }

    func advance(by duration: Duration) {
        instant.withLock { $0 += duration }
    }
}

/// A transport that answers with a closure, for unit tests of the client.
struct ClosureTransport: Transport {
    let handler:
        @Sendable (HTTPRequest, MessageBody?, ContinuousClock.Instant?) async throws -> (HTTPResponse, MessageBody?)

    func send(_ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?) async throws -> (
        HTTPResponse, MessageBody?
    ) {
        try await handler(request, body, deadline)
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> ClosureTransport {
        ClosureTransport { _, _, _ in
            (HTTPResponse(status: status, headerFields: [.contentType: "application/json"]), MessageBody(text))
        }
    }
}

struct TaggingMiddleware: Middleware {
    let name: String
    let log: EventLog

    func intercept(
        _ request: HTTPRequest, body: MessageBody?, context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        log.append("→\(name)")
        var request = request
        request.headerFields.append(HTTPField(name: .init("X-Trail")!, value: name))
        let result = try await next(request, body, context)
        log.append("←\(name)")
        return result
    }
}
