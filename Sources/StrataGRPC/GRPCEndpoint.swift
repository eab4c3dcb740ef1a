#if GRPC
    import Foundation
    import HTTPTypes
    import Strata
    import SwiftProtobuf

    /// A gRPC call together with the way its response message becomes a `Response`: the
    /// gRPC counterpart of `Endpoint`.
    ///
    /// `GRPCEndpoint(request, decoding: T.self)` reads every model kind, as
    /// `Endpoint(_:decoding:)` does: an application model (`DTODecodable`) whose DTO is read
    /// from a protobuf message, a raw DTO (`RawDecodable` whose `Raw` is a message, or
    /// ``ProtobufRawDecodable``), or the generated message itself.
    ///
    /// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests makes these calls) -->
    /// ```swift
    /// let endpoint = GRPCEndpoint(request, decoding: User.self).timeout(.seconds(5))
    /// let user = try await networker.send(endpoint)
    /// ```
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCEndpoint<Response>: Sendable {
        /// The call: route, request message (as the body) and metadata (the header fields).
        public var request: RequestDescription<GRPCRoute>
        /// Turns the bytes of one response message into a `Response`; throws
        /// `MappingError` (its `MappingError.layer` says whether reading the
        /// message or mapping it into the app model failed).
        public var parse: @Sendable (Data) throws -> Response
        /// How long the whole call may take; `nil` uses the client's
        /// ``GRPCNetworker/Configuration/timeout``.
        public var timeout: Duration?
        /// How long each attempt may wait for the server's answer; `nil` uses the client's
        /// ``GRPCNetworker/Configuration/attemptTimeout`` (see ``GRPCAttemptTimeoutTransport``).
        public var attemptTimeout: Duration?
        /// Values for the client's interceptors, under their keys: the call's
        /// `MiddlewareContext.options`, as `Endpoint.options` are over HTTP.
        public var options = CallValues()
        /// How a ``GRPCRetryInterceptor`` treats this call; `nil` follows its policy (a method
        /// not among its ``GRPCRetryInterceptor/idempotentMethods`` is not retried).
        public var retry: RetryRule?

        /// Creates an endpoint from a call and a parse function over a response message's bytes.
        public init(_ request: RequestDescription<GRPCRoute>, parse: @escaping @Sendable (Data) throws -> Response) {
            self.request = request
            self.parse = parse
        }

        /// How long the whole call may take, the whole stream for a server-streaming call.
        public func timeout(_ duration: Duration) -> GRPCEndpoint {
            var copy = self
            copy.timeout = duration
            return copy
        }

        /// How long each attempt may wait for the server's answer (its response metadata or
        /// status) before it ends as timed out, and is retried under a ``GRPCRetryInterceptor``
        /// (see ``GRPCAttemptTimeoutTransport``).
        public func attemptTimeout(_ duration: Duration) -> GRPCEndpoint {
            var copy = self
            copy.attemptTimeout = duration
            return copy
        }

        /// How a ``GRPCRetryInterceptor`` treats this call: `RetryRule.withIdempotencyKey`
        /// marks it as safe to send twice (retried whatever its method), `RetryRule.never`
        /// forbids it, `RetryRule.custom(_:)` decides after each attempt.
        public func retry(_ rule: RetryRule) -> GRPCEndpoint {
            var copy = self
            copy.retry = rule
            return copy
        }

        /// Sets a value for the client's interceptors under `key` (see ``options``).
        public func option<Key: CallValueKey>(_ key: Key.Type, _ value: Key.Value) -> GRPCEndpoint {
            var copy = self
            copy.options[key] = value
            return copy
        }

        /// Sets one metadata field (a header field of ``request``), replacing any of the same
        /// name; a `-bin` name takes a base64 value.
        public func header(_ name: HTTPField.Name, _ value: String) -> GRPCEndpoint {
            var copy = self
            copy.request.headers[name] = value
            return copy
        }
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    extension GRPCEndpoint where Response: SwiftProtobuf.Message {
        /// An endpoint whose response is the generated message itself (no model layers).
        @_disfavoredOverload
        public init(_ request: RequestDescription<GRPCRoute>, decoding type: Response.Type) {
            self.init(request) { bytes in try ProtobufBytes.message(Response.self, from: bytes) }
        }
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    extension GRPCEndpoint where Response: RawDecodable & StrataSendableMetatype, Response.Raw: SwiftProtobuf.Message {
        /// An endpoint whose response is a raw-layer model read from the message `Raw`, with
        /// ``StrataCore/RawDecodable/decode(rawBody:using:)``.
        public init(_ request: RequestDescription<GRPCRoute>, decoding type: Response.Type) {
            self.init(request) { bytes in try ProtobufParsing.raw(bytes) }
        }
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    extension GRPCEndpoint where Response: ProtobufRawDecodable & StrataSendableMetatype {
        /// An endpoint whose response is a raw-layer model with a protobuf form
        /// (``ProtobufRawDecodable``).
        public init(_ request: RequestDescription<GRPCRoute>, decoding type: Response.Type) {
            self.init(request) { bytes in try ProtobufParsing.protobufRaw(bytes) }
        }
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    extension GRPCEndpoint
    where Response: DTODecodable & StrataSendableMetatype, Response.DTO.Raw: SwiftProtobuf.Message {
        /// An endpoint whose response is an application model whose DTO's `Raw` is a protobuf
        /// message: bytes → message → DTO → `Response`.
        public init(_ request: RequestDescription<GRPCRoute>, decoding type: Response.Type) {
            self.init(request) { bytes in try ProtobufParsing.model(bytes) }
        }
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    extension GRPCEndpoint
    where Response: DTODecodable & StrataSendableMetatype, Response.DTO: ProtobufRawDecodable {
        /// An endpoint whose response is an application model whose DTO has a protobuf form
        /// (``ProtobufRawDecodable``): bytes → message → DTO → `Response`. The HTTP demo's
        /// `User` is read this way, its `UserEntry` DTO and `from(dto:)` unchanged.
        public init(_ request: RequestDescription<GRPCRoute>, decoding type: Response.Type) {
            self.init(request) { bytes in try ProtobufParsing.protobufModel(bytes) }
        }
    }

    /// The parse steps behind ``GRPCEndpoint``'s constructors, plain generic functions so that
    /// the `@Sendable` parse closures capture no metatypes.
    enum ProtobufParsing {
        /// Bytes → raw-layer model (its `Raw` a message).
        static func raw<T: RawDecodable>(_ bytes: Data) throws -> T where T.Raw: SwiftProtobuf.Message {
            do {
                return try T.decode(rawBody: bytes, using: sharedDecoder)
            } catch {
                throw MappingError(type: T.self, underlying: error)
            }
        }

        /// Bytes → message → raw-layer model.
        static func protobufRaw<T: ProtobufRawDecodable>(_ bytes: Data) throws -> T {
            let message = try ProtobufBytes.message(T.Message.self, from: bytes)
            do {
                return try T.from(message: message)
            } catch {
                throw MappingError(type: T.self, underlying: error)
            }
        }

        /// Bytes → DTO (its `Raw` a message) → application model.
        static func model<T: DTODecodable>(_ bytes: Data) throws -> T where T.DTO.Raw: SwiftProtobuf.Message {
            let dto: T.DTO = try raw(bytes)
            return try mapped(dto)
        }

        /// Bytes → message → DTO → application model.
        static func protobufModel<T: DTODecodable>(_ bytes: Data) throws -> T where T.DTO: ProtobufRawDecodable {
            let dto: T.DTO = try protobufRaw(bytes)
            return try mapped(dto)
        }

        /// DTO → application model; a failure is a model-layer ``StrataCore/MappingError``.
        private static func mapped<T: DTODecodable>(_ dto: T.DTO) throws -> T {
            do {
                return try T.from(dto: dto)
            } catch {
                var mapping = MappingError(type: T.self, underlying: error)
                mapping.layer = .model
                throw mapping
            }
        }

        /// `RawDecodable.decode(rawBody:using:)` takes a JSON decoder; protobuf raw types ignore it.
        private static var sharedDecoder: JSONDecoder { JSONDecoder() }
    }
#endif
