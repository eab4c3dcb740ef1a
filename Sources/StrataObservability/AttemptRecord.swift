import Foundation
import HTTPTypes
import Metrics
import Strata
import Tracing

/// One attempt from its start to the end of its response body: what its span and its
/// metrics are told, each exactly once. The body's reader, the caller's task and a dropped
/// body's deinit can each end the attempt; the first one does.
final class AttemptRecord: Sendable {
    private struct State {
        var status: Int?
        var responseBytes: Int64 = 0
        var finished = false
    }

    private let attempt: ClientAttempt
    private let span: (any Span)?
    private let metrics: (any MetricsFactory)?
    private let started = ContinuousClock.now
    private let state = Locked(State())

    /// Starts the record of `attempt`: counts it active in `metrics`, and its request
    /// body's size.
    init(attempt: ClientAttempt, span: (any Span)?, metrics: (any MetricsFactory)?, requestBodySize: Int64?) {
        self.attempt = attempt
        self.span = span
        self.metrics = metrics
        guard let metrics else { return }
        Meter(label: "http.client.active_requests", dimensions: attempt.dimensions, factory: metrics).increment()
        if let requestBodySize {
            Recorder(label: "http.client.request.body.size", dimensions: attempt.dimensions, factory: metrics)
                .record(requestBodySize)
        }
    }

    /// The response head arrived.
    func received(_ response: HTTPResponse) {
        state.withLock { $0.status = response.status.code }
        span?.attributes["http.response.status_code"] = response.status.code
    }

    /// `count` more bytes of the response body were read.
    func read(_ count: Int) {
        state.withLock { $0.responseBytes += Int64(count) }
    }

    /// Ends the attempt (the first call only): the span's status and end, the duration,
    /// the response body's size, and one fewer active request.
    func finish(error: (any Error)?) {
        let (status, responseBytes, first) = state.withLock { state in
            defer { state.finished = true }
            return (state.status, state.responseBytes, !state.finished)
        }
        guard first else { return }
        let errorType = ClientAttempt.errorType(status: status, error: error)
        if let span {
            if let errorType {
                span.attributes["error.type"] = errorType
                span.setStatus(SpanStatus(code: .error))
            }
            if let error { span.recordError(error) }
            span.end()
        }
        guard let metrics else { return }
        Meter(label: "http.client.active_requests", dimensions: attempt.dimensions, factory: metrics).decrement()
        var dimensions = attempt.dimensions
        if let status { dimensions.append(("http.response.status_code", String(status))) }
        if let errorType { dimensions.append(("error.type", errorType)) }
        Timer(label: "http.client.request.duration", dimensions: dimensions, factory: metrics)
            .recordNanoseconds(Int64(started.duration(to: .now) / .nanoseconds(1)))
        if status != nil {
            Recorder(label: "http.client.response.body.size", dimensions: dimensions, factory: metrics)
                .record(responseBytes)
        }
    }

    deinit {
        finish(error: nil)  // a body dropped unread: the attempt ends with it
    }
}

extension MessageBody {
    /// This body, telling `record` how many bytes were read and when it ended (read to
    /// the end, failed, or dropped: the record's deinit).
    func observed(by record: AttemptRecord) -> MessageBody {
        watched { (chunk: { record.read($0.count) }, end: { record.finish(error: $0) }) }
    }
}
