import Foundation
import HTTPTypes

extension MiddlewareContext {
    /// Sends `request` on through `next` as the attempt `start` describes, telling
    /// `listeners` its response head and, once, its end: when its body has been read to
    /// the end, has failed, or has been dropped unread, or when no head arrived. The one
    /// place where a call's attempts become events, for logging, tracing and metrics alike.
    ///
    /// A new ``AttemptReport`` is bound around `next` for the transport to fill in (within
    /// the report of an observing step further out).
    public func observeAttempt(
        _ start: AttemptStart,
        body: MessageBody?,
        listeners: [any AttemptListener],
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        let report = AttemptReport(within: AttemptReport.current)
        let observed = ObservedAttempt(start: start, report: report, listeners: listeners)
        do {
            let (response, responseBody) = try await AttemptReport.$current.withValue(report) {
                try await next(start.request, body, self)
            }
            observed.received(response, bodyLength: responseBody?.length)
            guard let responseBody else {
                observed.end(error: nil)
                return (response, nil)
            }
            return (
                response,
                responseBody.watched { (chunk: { observed.read($0.count) }, end: { observed.end(error: $0) }) }
            )
        } catch {
            observed.end(error: error)
            throw error
        }
    }
}

/// One observed attempt from its head to its end: ends it for its listeners exactly once,
/// whoever comes first — the body's reader, the caller's task, or the deinit of a body
/// dropped unread.
private final class ObservedAttempt: Sendable {
    private struct State {
        var response: HTTPResponse?
        var responseBytes: Int64 = 0
        var ended = false
    }

    private let start: AttemptStart
    private let report: AttemptReport
    private let listeners: [any AttemptListener]
    private let state = Locked(State())

    init(start: AttemptStart, report: AttemptReport, listeners: [any AttemptListener]) {
        self.start = start
        self.report = report
        self.listeners = listeners
    }

    func received(_ response: HTTPResponse, bodyLength: Int64?) {
        state.withLock { $0.response = response }
        let head = AttemptHead(
            response: response, bodyLength: bodyLength, duration: start.startedAt.duration(to: .now),
            protocolVersion: report.protocolVersion)
        for listener in listeners { listener.headReceived(head) }
    }

    func read(_ count: Int) {
        state.withLock { $0.responseBytes += Int64(count) }
    }

    func end(error: (any Error)?) {
        let (response, bytes, first) = state.withLock { state in
            defer { state.ended = true }
            return (state.response, state.responseBytes, !state.ended)
        }
        guard first else { return }
        let end = AttemptEnd(
            response: response, responseBodyBytes: bytes, duration: start.startedAt.duration(to: .now),
            error: error, protocolVersion: report.protocolVersion)
        for listener in listeners { listener.attemptEnded(end) }
    }

    deinit {
        end(error: nil)  // a body dropped unread: the attempt ends with it
    }
}
