#if GRPC
    import Foundation
    import GRPCCore
    import HTTPTypes
    import NIOCore
    import NIOPosix
    import Strata
    import StrataNIOSSL

    extension StrataError.Kind {
        /// The server ended a gRPC call with a status other than `OK` that is not a transport
        /// failure or a cancellation: `unauthenticated`, `permissionDenied`, `invalidArgument`,
        /// `notFound`, `resourceExhausted`… ``StrataCore/StrataError/grpcStatus`` holds the code,
        /// its message and the trailing metadata (the gRPC counterpart of
        /// `StrataError.Kind.unacceptableStatus`).
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public static let grpcStatus = StrataError.Kind("grpcStatus") { error in
            guard let status = error.grpcStatus else { return "gRPC status failed" }
            return "gRPC status \(status)"
        }
    }

    /// The status a gRPC call ended with, as a failed call's ``StrataCore/StrataError`` keeps it.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCStatus: Error, Sendable, Hashable, CustomStringConvertible {
        /// The status code, such as `.notFound`.
        public var code: RPCError.Code
        /// The status message the server (or the client library) gave.
        public var message: String
        /// The trailing metadata that came with the status.
        public var metadata: Metadata

        /// Creates a status.
        public init(code: RPCError.Code, message: String, metadata: Metadata = [:]) {
            self.code = code
            self.message = message
            self.metadata = metadata
        }

        /// The status of an `RPCError`.
        public init(_ error: RPCError) {
            self.init(code: error.code, message: error.message, metadata: error.metadata)
        }

        /// `notFound (5): no user 42`.
        public var description: String {
            let name = String(describing: code)
            return message.isEmpty ? "\(name) (\(code.rawValue))" : "\(name) (\(code.rawValue)): \(message)"
        }
    }

    extension StrataError {
        /// The gRPC status a failed gRPC call ended with (code, message, trailing metadata),
        /// whatever its `kind`: ``Kind/grpcStatus``, a timeout (`deadlineExceeded`), a
        /// connection failure (`unavailable`) or a cancellation (`cancelled`); `nil` for
        /// failures that are not a status (a malformed message is `Kind.decoding`).
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public var grpcStatus: GRPCStatus? {
            if let status = underlying as? GRPCStatus { return status }
            return transportError?.underlying as? GRPCStatus
        }
    }

    /// How a gRPC failure becomes a ``StrataCore/StrataError``.
    ///
    /// | gRPC status | ``StrataCore/StrataError/Kind`` |
    /// |---|---|
    /// | `deadlineExceeded` | ``StrataCore/StrataError/Kind/transport``, ``StrataCore/TransportError/Kind/timedOut`` |
    /// | `unavailable` | ``StrataCore/StrataError/Kind/transport``, ``StrataCore/TransportError/Kind/connectionRefused`` when nothing listened, otherwise ``StrataCore/TransportError/Kind/connectionLost`` |
    /// | `cancelled` (or the calling task was cancelled) | ``StrataCore/StrataError/Kind/cancelled`` |
    /// | `unavailable` from ``GRPCCircuitBreakerInterceptor`` (caused by a ``Strata/CircuitOpenError``) | ``StrataCore/StrataError/Kind/circuitOpen`` |
    /// | a failed credential load or refresh of ``GRPCAuthenticationInterceptor`` | ``StrataCore/StrataError/Kind/middleware`` |
    /// | every other code | ``StrataCore/StrataError/Kind/grpcStatus`` |
    ///
    /// The status itself (code, message, trailing metadata) is ``StrataCore/StrataError/grpcStatus``.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    enum GRPCErrors {
        /// The error for `error`, thrown by a call whose head was `request` at `phase`: what
        /// the call reports (`report`), classified as every call's ending is
        /// (`StrataError.ending`).
        ///
        /// One rule is gRPC's own: grpc-swift ends a cancelled call with whatever status the
        /// cancelled RPC produced, so a cancelled task's status is the call's cancellation
        /// (keeping the status), but for the call's own deadline.
        ///
        /// `trustRefusal` is the last refusal of the call's ``GRPCTrust``: the reason (and the
        /// pins shown) for a chain its verification refused, which BoringSSL reports only as
        /// `CERTIFICATE_VERIFY_FAILED`.
        static func strataError(
            _ error: any Error, request: HTTPRequest, phase: StrataError.Phase, trustRefusal: TLSFailure? = nil
        ) -> StrataError {
            let taskCancelled = Task.isCancelled
            let rpcError = rpcError(in: error)
            if taskCancelled, let rpcError, rpcError.code != .deadlineExceeded {
                return StrataError(.cancelled, underlying: GRPCStatus(rpcError), request: request, phase: phase)
            }
            let reported = report(error, rpcError: rpcError, request: request, phase: phase, trustRefusal: trustRefusal)
            return StrataError.ending(
                reported, request: request, response: nil, phase: phase, deadlinePassed: false,
                taskCancelled: taskCancelled)
        }

        /// What a call that threw `error` reports, as a transport and a step would: a
        /// ``StrataCore/TransportError`` for the network's own failures (`deadlineExceeded`,
        /// `unavailable`, with the status underneath), the ``StrataCore/StrataError`` a status
        /// decides (a circuit open, an interceptor's failure, a cancellation, any other code),
        /// and any other error as it is.
        private static func report(
            _ error: any Error, rpcError: RPCError?, request: HTTPRequest, phase: StrataError.Phase,
            trustRefusal: TLSFailure?
        ) -> any Error {
            guard let rpcError else { return error }
            if let open = rpcError.cause as? CircuitOpenError {
                return StrataError(.circuitOpen, underlying: open, request: request)
            }
            if let failure = rpcError.cause as? GRPCInterceptorFailure {
                return StrataError(
                    .middleware, underlying: failure.error, request: request, middleware: failure.interceptor)
            }
            let status = GRPCStatus(rpcError)
            switch rpcError.code {
            case .deadlineExceeded:
                return TransportError(.timedOut, underlying: status, detail: "gRPC \(status)")
            case .unavailable:
                if let tls = tlsError(in: rpcError, trustRefusal: trustRefusal) { return tls }
                let kind: TransportError.Kind = isRefusal(rpcError) ? .connectionRefused : .connectionLost
                return TransportError(kind, underlying: status, detail: "gRPC \(status)")
            case .cancelled:
                return StrataError(.cancelled, underlying: status, request: request, phase: phase)
            default:
                return StrataError(.grpcStatus, underlying: status, request: request)
            }
        }

        /// The `RPCError` in `error`: the error itself, or a `RuntimeError` or wrapped cause.
        private static func rpcError(in error: any Error) -> RPCError? {
            if let rpcError = error as? RPCError { return rpcError }
            if let convertible = error as? any RPCErrorConvertible { return RPCError(convertible) }
            return nil
        }

        /// The TLS failure among the causes of an `unavailable` status, if any.
        private static func tlsError(in error: RPCError, trustRefusal: TLSFailure?) -> TransportError? {
            for cause in causes(of: error) {
                guard let tls = TransportError(readingTLSError: cause) else { continue }
                if let trustRefusal, tls.tlsFailure?.reason == .untrustedCertificate {
                    return TransportError(tlsFailure: trustRefusal, underlying: cause)
                }
                return tls
            }
            return nil
        }

        /// The errors an `RPCError` wraps, outermost first, at most eight deep.
        private static func causes(of error: RPCError) -> [any Error] {
            var causes: [any Error] = []
            var cause: (any Error)? = error.cause
            while let current = cause, causes.count < 8 {
                causes.append(current)
                switch current {
                case let rpc as RPCError: cause = rpc.cause
                case let runtime as RuntimeError: cause = runtime.cause
                default: cause = nil
                }
            }
            return causes
        }

        /// Whether the causes of an `unavailable` status say nothing listened at the address.
        private static func isRefusal(_ error: RPCError) -> Bool {
            causes(of: error).contains { current in
                if let io = current as? IOError, io.errnoCode == ECONNREFUSED { return true }
                if let connection = current as? NIOConnectionError,
                    connection.connectionErrors.contains(where: { ($0.error as? IOError)?.errnoCode == ECONNREFUSED })
                {
                    return true
                }
                return String(describing: current).localizedCaseInsensitiveContains("connection refused")
            }
        }
    }
#endif
