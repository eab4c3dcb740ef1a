import Foundation
import HTTPTypes
import Logging

@testable import Strata

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

/// Records what passes through, in order.
final class EventLog: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var events: [String] = []  // guarded by `lock`

    func append(_ event: String) { lock.withLock { events.append(event) } }
    var all: [String] { lock.withLock { events } }
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

/// A swift-log handler that keeps every line, for asserting on logs.
struct CapturingLogHandler: LogHandler {
    let log: EventLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let level = event.level
        let message = event.message
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.render($0.value))" }.joined(
            separator: " ")
        log.append("\(level) \(message) \(fields)")
    }

    /// Metadata with dictionaries in key order, so lines compare exactly.
    static func render(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .dictionary(let dictionary):
            "[" + dictionary.sorted { $0.key < $1.key }.map { "\($0.key): \(render($0.value))" }.joined(separator: ", ")
                + "]"
        case .array(let array):
            "[" + array.map(render).joined(separator: ", ") + "]"
        default:
            value.description
        }
    }
}
