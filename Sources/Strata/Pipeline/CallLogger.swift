import Logging

/// The logger of one call: the client's logger with the call's `strata.request` metadata,
/// made the first time a step asks for it.
///
/// Setting metadata on a `Logger` calls its handler, which may do real work every time
/// (swift-log's `StreamLogHandler` re-renders all its metadata); most calls never log, so
/// the ``Networker`` pays for it only when a step reads ``MiddlewareContext/logger``.
/// Shared by the copies of one call's context (attempts, redirects).
final class CallLogger: Sendable {
    private let base: Logger
    private let requestID: UInt64
    private let made = Locked<Logger?>(nil)

    init(_ base: Logger, requestID: UInt64) {
        self.base = base
        self.requestID = requestID
    }

    /// The logger with the call's metadata.
    var logger: Logger {
        made.withLock { made in
            if let made { return made }
            var logger = base
            logger[metadataKey: "strata.request"] = "\(requestID)"
            made = logger
            return logger
        }
    }
}
