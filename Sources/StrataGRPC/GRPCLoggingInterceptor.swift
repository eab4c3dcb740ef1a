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
            let counts = GRPCMessageCounts()
            var request = request
            let producer = request.producer
            request.producer = { writer in
                try await producer(RPCWriter(wrapping: CountingWriter(base: writer, counts: counts)))
            }
            do {
                var response = try await next(request, context)
                let elapsed = Self.milliseconds(start.duration(to: .now))
                switch response.accepted {
                case .success(var contents):
                    logger.log(level: level, "← OK \(target) (\(elapsed))")
                    let level = self.level
                    contents.bodyParts = RPCAsyncSequence(
                        wrapping: CountedBodyParts(base: contents.bodyParts, counts: counts) { counts, failure in
                            // A unary call's "← OK" line says it all; a stream's end says how much went each way.
                            guard counts.sent != 1 || counts.received > 1 || failure != nil else { return }
                            let summary =
                                "⇅ \(target) ended: \(counts.sent) sent, \(counts.received) received "
                                + "(\(Self.milliseconds(start.duration(to: .now))))"
                            if let failure {
                                logger.error("\(summary): \(failure)")
                            } else {
                                logger.log(level: level, "\(summary)")
                            }
                        })
                    response.accepted = .success(contents)
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

    /// How many messages a call sent and received so far.
    final class GRPCMessageCounts: Sendable {
        private let counts = Locked((sent: 0, received: 0))

        var snapshot: (sent: Int, received: Int) { counts.withLock { $0 } }

        func countSent(_ count: Int) { counts.withLock { $0.sent += count } }

        func countReceived() { counts.withLock { $0.received += 1 } }
    }

    /// A request writer that counts what it writes.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    struct CountingWriter<Element: Sendable>: RPCWriterProtocol {
        let base: RPCWriter<Element>
        let counts: GRPCMessageCounts

        func write(_ element: Element) async throws {
            try await base.write(element)
            counts.countSent(1)
        }

        func write(contentsOf elements: some Sequence<Element>) async throws {
            let elements = Array(elements)
            try await base.write(contentsOf: elements)
            counts.countSent(elements.count)
        }
    }

    /// A response's body parts, counting its messages and telling `onEnd` once, when the
    /// parts end or fail.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    struct CountedBodyParts<Message: Sendable>: AsyncSequence, Sendable {
        typealias Element = StreamingClientResponse<Message>.Contents.BodyPart

        let base: RPCAsyncSequence<Element, any Error>
        let counts: GRPCMessageCounts
        let onEnd: @Sendable ((sent: Int, received: Int), (any Error)?) -> Void

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: base.makeAsyncIterator(), counts: counts, onEnd: onEnd)
        }

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: RPCAsyncSequence<Element, any Error>.AsyncIterator
            let counts: GRPCMessageCounts
            let onEnd: @Sendable ((sent: Int, received: Int), (any Error)?) -> Void
            var ended = false

            mutating func next() async throws -> Element? {
                do {
                    let part = try await base.next()
                    switch part {
                    case .message: counts.countReceived()
                    case .trailingMetadata, nil: end(nil)
                    }
                    return part
                } catch {
                    end(error)
                    throw error
                }
            }

            private mutating func end(_ failure: (any Error)?) {
                guard !ended else { return }
                ended = true
                onEnd(counts.snapshot, failure)
            }
        }
    }
#endif
