import Foundation
import HTTPTypes
import Logging

/// Logs every attempt on swift-log: the request (`→`, with the attempt number, the retry
/// wait or redirect it follows, and header fields), the response head (`←`, status and
/// time to it, header fields, and the HTTP version where the transport reports it), the
/// end of the body at `debug` (`✓`, bytes and time), and any failure at `error` (`✕`),
/// also one while the body is read — with credentials redacted. It reads the same
/// attempt events as tracing and metrics (``MiddlewareContext/observeAttempt(_:body:listeners:next:)``).
///
/// `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` are always
/// redacted; add more names (an API-key header, say) with `redacting:`.
///
/// With `logsCurlCommands`, each attempt's request is also logged at `debug` as a `curl`
/// command (`HTTPRequest.curlCommand(body:redacting:revealingCredentials:)`, the same
/// fields redacted), to run it again by hand. Put the step last in the client's list to log
/// the request as the transport gets it.
public struct LoggingMiddleware: Middleware {
    /// The fields whose values are never logged.
    public static let alwaysRedacted: Set<HTTPField.Name> = [.authorization, .proxyAuthorization, .cookie, .setCookie]

    /// The level of the request and response lines; failures log at `.error`.
    public var level: Logger.Level
    /// Whether header fields are logged (as metadata).
    public var logsHeaders: Bool
    /// The fields whose values are replaced by `<redacted>`.
    public let redactedFields: Set<HTTPField.Name>
    /// Whether each attempt's request is also logged at `debug` as a `curl` command.
    public var logsCurlCommands: Bool
    private let logger: Logger?

    /// Creates a logging step.
    /// - Parameters:
    ///   - logger: where to log; `nil` uses the client's logger from the context.
    ///   - level: the level of the request and response lines.
    ///   - logsHeaders: whether to log header fields.
    ///   - redacting: field names to redact besides ``alwaysRedacted``.
    ///   - logsCurlCommands: whether to log each attempt's request as a `curl` command too.
    public init(
        logger: Logger? = nil, level: Logger.Level = .info, logsHeaders: Bool = true,
        redacting: Set<HTTPField.Name> = [], logsCurlCommands: Bool = false
    ) {
        self.logger = logger
        self.level = level
        self.logsHeaders = logsHeaders
        self.redactedFields = Self.alwaysRedacted.union(redacting)
        self.logsCurlCommands = logsCurlCommands
    }

    /// Logs the request, passes it on, and logs the response head, the end of its body,
    /// or the failure.
    public func intercept(
        _ request: HTTPRequest,
        body: MessageBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> (HTTPResponse, MessageBody?) {
        let logger = logger ?? context.logger
        if logsCurlCommands {
            logger.debug("\(request.curlCommand(body: body, redacting: redactedFields))")
        }
        let start = AttemptStart(request, body: body, context: context)
        let lines = AttemptLog(logger: logger, step: self, start: start)
        return try await context.observeAttempt(start, body: body, listeners: [lines], next: next)
    }

    /// The fields as log metadata, redacted.
    func metadata(_ fields: HTTPFields) -> Logger.MetadataValue {
        var result: Logger.Metadata = [:]
        for field in fields {
            let value = redactedFields.contains(field.name) ? "<redacted>" : field.value
            let key = field.name.canonicalName
            if case .string(let existing) = result[key] {
                result[key] = .string(existing + ", " + value)
            } else {
                result[key] = .string(value)
            }
        }
        return .dictionary(result)
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let ms = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return String(format: "%.1f ms", ms)
    }
}

extension LoggingMiddleware {
    /// `true`: it waits for nothing but `next`.
    public var boundsItsWaits: Bool { true }
}
