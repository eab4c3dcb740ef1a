#if GRPC
    import Foundation
    import GRPCCore

    /// What ``GRPCNetworker`` needs of a `GRPCClient`, whatever its transport type: a
    /// `GRPCClient<Transport>` is generic, so the networker holds it through this protocol.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    protocol GRPCCalls: Sendable {
        func unary<Request, Response, ReturnValue: Sendable>(
            request: ClientRequest<Request>,
            descriptor: MethodDescriptor,
            serializer: some MessageSerializer<Request>,
            deserializer: some MessageDeserializer<Response>,
            options: CallOptions,
            onResponse handleResponse:
                @Sendable @escaping (_ response: ClientResponse<Response>) async throws -> ReturnValue
        ) async throws -> ReturnValue

        func serverStreaming<Request, Response, ReturnValue: Sendable>(
            request: ClientRequest<Request>,
            descriptor: MethodDescriptor,
            serializer: some MessageSerializer<Request>,
            deserializer: some MessageDeserializer<Response>,
            options: CallOptions,
            onResponse handleResponse:
                @Sendable @escaping (_ response: StreamingClientResponse<Response>) async throws -> ReturnValue
        ) async throws -> ReturnValue

        func clientStreaming<Request, Response, ReturnValue: Sendable>(
            request: StreamingClientRequest<Request>,
            descriptor: MethodDescriptor,
            serializer: some MessageSerializer<Request>,
            deserializer: some MessageDeserializer<Response>,
            options: CallOptions,
            onResponse handleResponse:
                @Sendable @escaping (_ response: ClientResponse<Response>) async throws -> ReturnValue
        ) async throws -> ReturnValue

        func bidirectionalStreaming<Request, Response, ReturnValue: Sendable>(
            request: StreamingClientRequest<Request>,
            descriptor: MethodDescriptor,
            serializer: some MessageSerializer<Request>,
            deserializer: some MessageDeserializer<Response>,
            options: CallOptions,
            onResponse handleResponse:
                @Sendable @escaping (_ response: StreamingClientResponse<Response>) async throws -> ReturnValue
        ) async throws -> ReturnValue

        func runConnections() async throws
        func beginGracefulShutdown()
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    extension GRPCClient: GRPCCalls {}

    /// Sends a request message that is already serialised: ``GRPCNetworker`` keeps the
    /// message as bytes in the request description's body.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    struct RawBytesSerializer: MessageSerializer {
        func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes {
            Bytes(message)
        }
    }

    /// Receives a response message as its bytes, so that reading it is Strata's step (a
    /// malformed message is a ``StrataCore/StrataError/Kind/decoding`` failure with a
    /// ``StrataCore/MappingError``), not an `RPCError` the transport makes up.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    struct RawBytesDeserializer: MessageDeserializer {
        func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> Data {
            serializedMessageBytes.withUnsafeBytes { Data($0) }
        }
    }
#endif
