#if GRPC
    import Foundation
    import Strata
    import SwiftProtobuf

    /// The request messages of a client-streaming or bidirectional call (``GRPCNetworker``'s
    /// `send(_:messages:)`, `response(for:messages:)`, `load(_:messages:completion:)` and
    /// `stream(_:messages:)`), produced as the call sends them: from an `AsyncSequence` of
    /// generated messages, raw-layer models or app models, or by a writer closure.
    ///
    /// Each message goes through the same model layers as a unary request: an app model
    /// through its DTO (`DTOEncodable`) to its protobuf message. The call takes messages
    /// at the transport's pace: a writer whose server stops reading waits instead of
    /// buffering. A message that cannot be encoded ends the call with
    /// `StrataError.Kind.encoding`.
    ///
    /// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests makes these calls) -->
    /// ```swift
    /// let summary = try await networker.send(
    ///     GRPCEndpoint(RequestDescription(route: uploadRoute), decoding: UploadSummary.self),
    ///     messages: GRPCRequestMessages(models: photos.async))
    /// ```
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCRequestMessages: Sendable {
        /// Writes the messages' bytes, in order, through `write`; returns after the last.
        let produce: @Sendable (_ write: @escaping @Sendable ([UInt8]) async throws -> Void) async throws -> Void

        private init(
            produce:
                @escaping @Sendable (_ write: @escaping @Sendable ([UInt8]) async throws -> Void) async throws -> Void
        ) {
            self.produce = produce
        }

        /// Messages a closure writes, each an encoded `Model`, through a writer of its own.
        private init<Model>(
            encode: @escaping @Sendable (Model) throws -> [UInt8],
            _ body: @escaping @Sendable (GRPCMessageWriter<Model>) async throws -> Void
        ) {
            self.init { write in try await body(GRPCMessageWriter(encode: encode, write: write)) }
        }

        /// Generated protobuf messages, written by `body`.
        public init<Message: SwiftProtobuf.Message>(
            writing type: Message.Type, _ body: @escaping @Sendable (GRPCMessageWriter<Message>) async throws -> Void
        ) {
            self.init(encode: ProtobufEncoding.message, body)
        }

        /// Raw-layer models with a protobuf form (``ProtobufRawEncodable``), written by `body`.
        public init<Model: ProtobufRawEncodable & StrataSendableMetatype>(
            writing type: Model.Type, _ body: @escaping @Sendable (GRPCMessageWriter<Model>) async throws -> Void
        ) {
            self.init(encode: ProtobufEncoding.raw, body)
        }

        /// App models sent as their DTO's protobuf form, written by `body`.
        public init<Model: DTOEncodable & StrataSendableMetatype>(
            writing type: Model.Type, _ body: @escaping @Sendable (GRPCMessageWriter<Model>) async throws -> Void
        ) where Model.DTO: ProtobufRawEncodable {
            self.init(encode: ProtobufEncoding.model, body)
        }

        /// The generated protobuf messages of `messages`, in order.
        public init<Messages: AsyncSequence & Sendable>(_ messages: Messages)
        where Messages.Element: SwiftProtobuf.Message {
            self.init(writing: Messages.Element.self) { writer in try await writer.write(contentsOf: messages) }
        }

        /// The raw-layer models of `messages` (``ProtobufRawEncodable``), in order.
        public init<Messages: AsyncSequence & Sendable>(raw messages: Messages)
        where Messages.Element: ProtobufRawEncodable & StrataSendableMetatype {
            self.init(writing: Messages.Element.self) { writer in try await writer.write(contentsOf: messages) }
        }

        /// The app models of `messages`, each sent as its DTO's protobuf form, in order.
        public init<Messages: AsyncSequence & Sendable>(models messages: Messages)
        where Messages.Element: DTOEncodable & StrataSendableMetatype, Messages.Element.DTO: ProtobufRawEncodable {
            self.init(writing: Messages.Element.self) { writer in try await writer.write(contentsOf: messages) }
        }
    }

    /// Writes the messages of a streamed request: each model is encoded, then sent when the
    /// transport takes it (a server that stops reading holds the writer back).
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public struct GRPCMessageWriter<Model>: Sendable {
        let encode: @Sendable (Model) throws -> [UInt8]
        let send: @Sendable ([UInt8]) async throws -> Void

        init(
            encode: @escaping @Sendable (Model) throws -> [UInt8],
            write: @escaping @Sendable ([UInt8]) async throws -> Void
        ) {
            self.encode = encode
            self.send = write
        }

        /// Encodes `model` and sends it.
        /// - Throws: ``GRPCMessageEncodingError`` when the model cannot be encoded (the call
        ///   then ends with `StrataError.Kind.encoding`); the call's error when it
        ///   ended before the message was taken.
        public func write(_ model: Model) async throws {
            let bytes: [UInt8]
            do {
                bytes = try encode(model)
            } catch {
                throw GRPCMessageEncodingError(underlying: error)
            }
            try await send(bytes)
        }

        /// Encodes and sends each model of `models`, in order.
        public func write<Models: AsyncSequence>(contentsOf models: Models) async throws where Models.Element == Model {
            for try await model in models { try await write(model) }
        }
    }

    /// A message of a streamed request could not be encoded; the call ends with
    /// `StrataError.Kind.encoding` and this error as its `underlying` one.
    public struct GRPCMessageEncodingError: Error, Sendable {
        /// The model layer's error (a `MappingError`, or SwiftProtobuf's).
        public let underlying: any Error
    }

    /// The encode steps behind ``GRPCRequestMessages``' constructors, as plain generic
    /// functions so that the `@Sendable` closures capture no metatypes.
    enum ProtobufEncoding {
        static func message<M: SwiftProtobuf.Message>(_ message: M) throws -> [UInt8] {
            try ProtobufBytes.bytes(of: message)
        }

        static func raw<M: ProtobufRawEncodable>(_ model: M) throws -> [UInt8] {
            try ProtobufBytes.bytes(of: try model.toMessage())
        }

        static func model<M: DTOEncodable>(_ model: M) throws -> [UInt8] where M.DTO: ProtobufRawEncodable {
            try ProtobufBytes.bytes(of: try model.toDTO().toMessage())
        }
    }
#endif
