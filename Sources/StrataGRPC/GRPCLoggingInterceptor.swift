#if GRPC
    import GRPCCore
    import HTTPTypes
    import Logging
    import Strata

    /// Logs every attempt of a gRPC call on swift-log, the way `LoggingMiddleware`
    /// logs an HTTP attempt: `→ /service/Method` with the attempt number and the metadata
    /// (credentials redacted), `← OK /service/Method (time)` when the server accepted it, or
    /// `✕ code /service/Method (time): message` at `error` level when it was rejected or
    /// failed.
    ///
    /// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests makes these calls) -->
    /// ```swift
    /// let networker = GRPCNetworker(transport: transport, interceptors: [GRPCLoggingInterceptor()] + .resilient())
    /// ```
    ///
    /// The lines go to the call's logger (``GRPCNetworker/Configuration/logger``, with the
    /// call's metadata) unless a logger is given. The metadata keys `authorization`,
    /// `proxy-authorization` and `cookie` are always redacted, as the HTTP step redacts those
    /// fields; add more with `redacting:`. Put it first to log each attempt the retry executor
    /// makes.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCLoggingInterceptor: ClientInterceptor {
        /// The metadata keys whose values are never logged.
        public static let alwaysRedacted: Set<String> = ["authorization", "proxy-authorization", "cookie"]

        /// The level of the request and response lines; failures log at `.error`.
        public var level: Logger.Level
        /// The metadata keys whose values are replaced by `<redacted>` (lowercased).
        public let redactedKeys: Set<String>
        private let logger: Logger?
        private let identity = Identity()

        /// Creates the interceptor.
        /// - Parameters:
        ///   - logger: where to log; `nil` uses the call's logger.
        ///   - level: the level of the request and response lines.
        ///   - redacting: metadata keys to redact besides ``alwaysRedacted``.
        public init(logger: Logger? = nil, level: Logger.Level = .info, redacting: Set<String> = []) {
            self.logger = logger
            self.level = level
            self.redactedKeys = Self.alwaysRedacted.union(redacting.map { $0.lowercased() })
        }

        /// Logs the attempt, passes it on, and logs how it was answered.
        public func intercept<Input: Sendable, Output: Sendable>(
            request: StreamingClientRequest<Input>,
            context: ClientContext,
            next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
        ) async throws -> StreamingClientResponse<Output> {
            let scope = GRPCCallScope.forAttempt(request: request.metadata)
            let logger = self.logger ?? scope.context.logger
            let target = "/\(context.descriptor.fullyQualifiedMethod)"
            // A networker's call counts its attempts in its scope; a plain client's attempt
            // knows its number from the executor's metadata.
            let owner = ObjectIdentifier(identity)
            let previous =
                scope.take(owner, as: Int.self)
                ?? request.metadata[stringValues: GRPCMetadataKeys.previousAttempts].first(where: { _ in true })
                .flatMap(Int.init) ?? 0
            let attempt = previous + 1
            scope.put(owner, attempt)
            logger.log(
                level: level, "→ \(target)",
                metadata: ["strata.attempt": "\(attempt)", "strata.metadata": redacted(request.metadata)])
            let start = ContinuousClock.now
            do {
                let response = try await next(request, context)
                let elapsed = Self.milliseconds(start.duration(to: .now))
                switch response.accepted {
                case .success:
                    logger.log(level: level, "← OK \(target) (\(elapsed))")
                case .failure(let error):
                    logger.error("✕ \(error.code) \(target) (\(elapsed)): \(error.message)")
                }
                return response
            } catch {
                logger.error("✕ \(target) failed after \(Self.milliseconds(start.duration(to: .now))): \(error)")
                throw error
            }
        }

        /// `metadata` as log metadata, redacted.
        func redacted(_ metadata: Metadata) -> Logger.MetadataValue {
            var result: Logger.Metadata = [:]
            for (key, value) in metadata {
                let text: String =
                    switch value {
                    case .string(let string): redactedKeys.contains(key.lowercased()) ? "<redacted>" : string
                    case .binary(let bytes): "<\(bytes.count) bytes>"
                    }
                if case .string(let existing) = result[key] {
                    result[key] = .string(existing + ", " + text)
                } else {
                    result[key] = .string(text)
                }
            }
            return .dictionary(result)
        }

        /// The interceptor's identity in a call's scope, shared by its copies.
        private final class Identity: Sendable {}

        private static func milliseconds(_ duration: Duration) -> String {
            String(format: "%.1f ms", Double(duration / .microseconds(1)) / 1000)
        }
    }
#endif
