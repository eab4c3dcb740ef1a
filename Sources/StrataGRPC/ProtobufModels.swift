#if GRPC
    import Foundation
    import Strata
    import SwiftProtobuf

    // The raw layer over gRPC is a protobuf message. Three ways in, all through Strata's own
    // model protocols:
    //
    // - a message used as it is: conform it to `RawDecodable`/`RawEncodable` with
    //   `typealias Raw = Self` and nothing else (the "no models" case);
    // - a DTO whose `Raw` is a message (`RawDecodable` with `Raw: SwiftProtobuf.Message`): the
    //   bytes are read as that message, then `from(raw:)` runs, as JSON DTOs do with `JSON`;
    // - a DTO whose `Raw` is already `JSON` (the HTTP demo's `UserEntry`) and that also has a
    //   protobuf form: `ProtobufRawDecodable`/`ProtobufRawEncodable` give it that second raw
    //   representation, because one associated type cannot name two.
    //
    // The application layer (`DTODecodable`/`DTOEncodable`) maps unchanged on top of any of them.

    extension RawDecodable where Raw: SwiftProtobuf.Message {
        /// Reads the body as the protobuf message `Raw` (binary wire format), then maps it
        /// with ``StrataCore/RawDecodable/from(raw:)``; `decoder` is not used.
        /// - Throws: `MappingError` naming `Raw` when the bytes are not such a message,
        ///   or the error `from(raw:)` throws.
        public static func decode(rawBody: Data, using decoder: JSONDecoder) throws -> Self {
            try from(raw: ProtobufBytes.message(Raw.self, from: rawBody))
        }
    }

    extension RawDecodable where Self: SwiftProtobuf.Message, Raw == Self {
        /// A message is its own raw value.
        public static func from(raw: Self) throws -> Self { raw }
    }

    extension RawEncodable where Self: SwiftProtobuf.Message, Raw == Self {
        /// A message is its own raw value.
        public func toRaw() throws -> Self { self }
    }

    /// A raw-layer model (DTO) that can also be read from a protobuf message: the second raw
    /// representation of a DTO whose `RawDecodable.Raw` is already `JSON`,
    /// so that the same DTO, and the application model mapped from it, serve HTTP and gRPC.
    ///
    /// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests makes these calls) -->
    /// ```swift
    /// extension PhotoEntry: ProtobufRawDecodable {
    ///     public static func from(message: Strata_Demo_V1_PhotoMessage) throws -> PhotoEntry {
    ///         PhotoEntry(id: message.id, ref: message.ref)
    ///     }
    /// }
    /// ```
    public protocol ProtobufRawDecodable {
        /// The protobuf message this model is read from.
        associatedtype Message: SwiftProtobuf.Message

        /// Creates the model from its message.
        /// - Throws: `MappingError` when the message does not describe a valid model.
        static func from(message: Message) throws -> Self
    }

    /// A raw-layer model (DTO) that can also turn itself into a protobuf message; see
    /// ``ProtobufRawDecodable``.
    public protocol ProtobufRawEncodable {
        /// The protobuf message this model is sent as.
        associatedtype Message: SwiftProtobuf.Message

        /// Returns the message that represents this model.
        /// - Throws: `MappingError` when the model cannot be represented.
        func toMessage() throws -> Message
    }

    extension ProtobufRawEncodable where Self: RawEncodable, Raw == Message {
        /// A model whose `Raw` is its protobuf message sends that message
        /// (``StrataCore/RawEncodable/toRaw()``): a DTO whose raw layer is a message, or a message
        /// used as it is, declares the conformance (`typealias Message = Raw`) and nothing else.
        public func toMessage() throws -> Message { try toRaw() }
    }

    /// A raw-layer model with a protobuf form both ways.
    public typealias ProtobufRawMappable = ProtobufRawDecodable & ProtobufRawEncodable

    /// Reading and writing protobuf's binary form, failing with ``StrataCore/MappingError``.
    enum ProtobufBytes {
        /// Bytes → message `M`.
        static func message<M: SwiftProtobuf.Message>(_ type: M.Type, from bytes: Data) throws -> M {
            do {
                return try M(serializedBytes: bytes)
            } catch {
                throw MappingError(type: M.self, description: "not a valid \(M.protoMessageName) message: \(error)")
            }
        }

        /// Message → bytes (`Data`, or `[UInt8]` for grpc-swift's serializers).
        static func bytes<M: SwiftProtobuf.Message, Bytes: SwiftProtobufContiguousBytes>(of message: M) throws
            -> Bytes
        {
            do {
                return try message.serializedBytes()
            } catch {
                throw MappingError(type: M.self, description: "cannot serialise \(M.protoMessageName): \(error)")
            }
        }
    }
#endif
