import HTTPTypes
import Logging

/// The lines ``LoggingMiddleware`` writes about one attempt, from its events: the request
/// as it starts (`→`), the response head (`←`), then the end of the body at `debug`
/// (`✓`), or the failure at `error` (`✕`), before or after the head.
struct AttemptLog: AttemptListener {
    let logger: Logger
    let step: LoggingMiddleware
    let target: String

    /// Logs the start of the attempt.
    init(logger: Logger, step: LoggingMiddleware, start: AttemptStart) {
        self.logger = logger
        self.step = step
        target = "\(start.request.method.rawValue) \(start.request.absoluteURLString)"
        var metadata: Logger.Metadata = ["strata.attempt": "\(start.attempt)"]
        if let wait = start.retryWait { metadata["strata.retry_wait"] = "\(LoggingMiddleware.milliseconds(wait))" }
        if let hop = start.redirect { metadata["strata.redirect"] = "\(hop.number) from \(hop.from)" }
        if step.logsHeaders { metadata["strata.headers"] = step.metadata(start.request.headerFields) }
        if let length = start.requestBodyLength { metadata["strata.body_bytes"] = "\(length)" }
        logger.log(level: step.level, "→ \(target)", metadata: metadata)
    }

    func headReceived(_ head: AttemptHead) {
        var metadata: Logger.Metadata = [:]
        if step.logsHeaders { metadata["strata.headers"] = step.metadata(head.response.headerFields) }
        if let length = head.bodyLength { metadata["strata.body_bytes"] = "\(length)" }
        if let version = head.protocolVersion { metadata["network.protocol.version"] = "\(version)" }
        logger.log(
            level: step.level,
            "← \(head.response.status.code) \(target) (\(LoggingMiddleware.milliseconds(head.duration)))",
            metadata: metadata)
    }

    func attemptEnded(_ end: AttemptEnd) {
        let elapsed = LoggingMiddleware.milliseconds(end.duration)
        switch (end.response, end.error) {
        case (nil, let error?):
            logger.error("✕ \(target) failed after \(elapsed): \(error)")
        case (let response?, let error?):
            logger.error(
                "✕ \(response.status.code) \(target): body failed after \(end.responseBodyBytes) bytes, \(elapsed): \(error)"
            )
        case (let response?, nil):
            logger.debug("✓ \(response.status.code) \(target): \(end.responseBodyBytes) bytes in \(elapsed)")
        case (nil, nil):
            break
        }
    }
}
