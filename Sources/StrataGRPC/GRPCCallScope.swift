#if GRPC
    import Foundation
    import GRPCCore
    import HTTPTypes
    import Logging
    import Strata
    import Synchronization

    /// One gRPC call's policy state, shared by its attempts: ``GRPCNetworker`` binds one to
    /// ``current`` around the grpc-swift call, and Strata's interceptors read it there.
    ///
    /// grpc-swift runs a call's interceptors in the calling task or in child tasks of it (its
    /// executors use task groups, and the transport runs the stream's body inline), so the
    /// task-local is visible to every attempt. Without a bound scope (the interceptors on a
    /// plain `GRPCClient`), each interceptor makes one of its own for the attempt
    /// (``forAttempt(request:)``).
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    final class GRPCCallScope: Sendable {
        /// The scope of the call in flight in this task, if a ``GRPCNetworker`` made it.
        @TaskLocal static var current: GRPCCallScope?

        /// The call's context: deadline, logger, per-call values, and the records the
        /// interceptors leave for the call's response or error.
        let context: MiddlewareContext
        /// The call's request head, for ``Strata/RetryAttempt`` and errors.
        let head: HTTPRequest?
        /// Whether a ``GRPCNetworker`` made the scope for the whole call (so it spans attempts).
        let spansAttempts: Bool
        /// Per-interceptor state, under the interceptor's identity: a retry run, the
        /// authentication step's "sent once more" mark.
        private let state = Mutex<[ObjectIdentifier: any Sendable]>([:])
        /// The messages of a client-streaming or bidirectional call.
        private let streamed: GRPCStreamedRequest?

        init(context: MiddlewareContext, head: HTTPRequest?, spansAttempts: Bool, streamed: GRPCStreamedRequest? = nil)
        {
            self.context = context
            self.head = head
            self.spansAttempts = spansAttempts
            self.streamed = streamed
        }

        /// Whether the call can be sent again: always for one request message; for a
        /// networker's streamed request, while it sent no more than it replays. (A plain
        /// client's streamed request is left to grpc-swift's executor, which does not resend
        /// a call whose first message left its buffer.)
        var isReplayable: Bool { streamed?.isReplayable ?? true }

        /// The scope bound by the networker, or one for this attempt alone: its deadline from
        /// the request's `grpc-timeout`, the default logger.
        static func forAttempt(request metadata: Metadata) -> GRPCCallScope {
            if let current { return current }
            let timeout = metadata[stringValues: GRPCMetadataKeys.timeout].first(where: { _ in true }).flatMap(
                GRPCMetadataKeys.duration(timeout:))
            let context = MiddlewareContext(
                deadline: timeout.map { ContinuousClock.now + $0 }, logger: Logger(label: "strata.grpc"))
            return GRPCCallScope(context: context, head: nil, spansAttempts: false)
        }

        /// Takes the state kept under `owner` out of the scope.
        func take<Value: Sendable>(_ owner: ObjectIdentifier, as type: Value.Type) -> Value? {
            state.withLock { $0.removeValue(forKey: owner) as? Value }
        }

        /// Keeps `value` under `owner`.
        func put(_ owner: ObjectIdentifier, _ value: some Sendable) {
            state.withLock { $0[owner] = value }
        }

        /// Sets the state under `owner` unless it is already `value`; `false` when it was.
        func mark(_ owner: ObjectIdentifier) -> Bool {
            state.withLock { $0.updateValue(true, forKey: owner) == nil }
        }
    }

    /// The gRPC metadata keys Strata's interceptors read and write.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    enum GRPCMetadataKeys {
        /// The call's remaining time, as the client sends it.
        static let timeout = "grpc-timeout"
        /// How long to wait before the next attempt (milliseconds), or a negative number for
        /// none: grpc-swift's retry executor obeys it, and Strata's interceptors use it to tell
        /// the executor what they decided.
        static let retryPushback = "grpc-retry-pushback-ms"
        /// The attempts made before this one, on a response of a retried call.
        static let previousAttempts = "grpc-previous-rpc-attempts"
        /// Marks a rejection that an inner Strata interceptor is having sent again (a renewed
        /// credential): an outer retry step leaves it alone.
        static let resend = "strata-resend"

        /// `metadata` with its pushback replaced: `wait` in whole milliseconds (rounded up),
        /// or `-1` (no retry) when `wait` is `nil`.
        static func pushback(_ metadata: Metadata, wait: Duration?) -> Metadata {
            var metadata = metadata
            metadata.replaceOrAddString(wait.map { String(milliseconds($0)) } ?? "-1", forKey: retryPushback)
            return metadata
        }

        /// The server's pushback in `metadata`: `.some(nil)` says stop, `nil` says nothing.
        static func pushback(in metadata: Metadata) -> Duration?? {
            guard let value = metadata[stringValues: retryPushback].first(where: { _ in true }) else { return nil }
            guard let milliseconds = Int64(value), milliseconds >= 0 else { return .some(nil) }
            return .some(.milliseconds(milliseconds))
        }

        /// The attempts before the one `metadata` answers, from grpc-swift's retry executor.
        static func previousAttempts(in metadata: Metadata) -> Int {
            metadata[stringValues: previousAttempts].first(where: { _ in true }).flatMap { Int($0) } ?? 0
        }

        /// `duration` in milliseconds, rounded up, at least 0.
        static func milliseconds(_ duration: Duration) -> Int64 {
            let (seconds, attoseconds) = duration.components
            guard seconds >= 0, attoseconds >= 0 else { return 0 }
            let (whole, rest) = attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000_000_000)
            return seconds.multipliedReportingOverflow(by: 1000).partialValue + whole + (rest > 0 ? 1 : 0)
        }

        /// A `grpc-timeout` value (`100m`, `5S`) as a duration.
        static func duration(timeout value: String) -> Duration? {
            guard let unit = value.last, let amount = Int64(value.dropLast()), amount >= 0 else { return nil }
            switch unit {
            case "H": return .seconds(amount * 3600)
            case "M": return .seconds(amount * 60)
            case "S": return .seconds(amount)
            case "m": return .milliseconds(amount)
            case "u": return .microseconds(amount)
            case "n": return .nanoseconds(amount)
            default: return nil
            }
        }
    }
#endif
