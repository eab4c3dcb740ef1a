#if GRPC
    import Foundation
    import GRPCCore
    import HTTPTypes
    import Strata

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    extension GRPCNetworker {
        /// Makes the client-streaming call `endpoint` describes, sending `messages`, and
        /// returns its one parsed response.
        ///
        /// `endpoint`'s request gives the route and the metadata (its body, if any, is not
        /// sent): `RequestDescription(route:headers:)`. The call's deadline and policies are
        /// the unary call's; see ``response(for:messages:)``.
        /// - Throws: ``Strata/StrataError`` naming the stage that failed:
        ///   `StrataError.Kind.encoding` for a message that cannot be encoded.
        public func send<Response>(_ endpoint: GRPCEndpoint<Response>, messages: GRPCRequestMessages)
            async throws(StrataError) -> Response
        {
            try await response(for: endpoint, messages: messages).value
        }

        /// Makes the client-streaming call `endpoint` describes, sending `messages` as the
        /// transport takes them, and returns the parsed response with its metadata.
        ///
        /// The deadline (`timeout`, sent as `grpc-timeout`) spans the whole call, the
        /// messages' sending included. A call retried by ``GRPCRetryInterceptor`` sends its
        /// messages again from grpc-swift's replay buffer (64 messages): a call that sent more
        /// before it failed is not retried.
        /// - Throws: ``Strata/StrataError`` naming the stage that failed.
        public func response<Response>(for endpoint: GRPCEndpoint<Response>, messages: GRPCRequestMessages)
            async throws(StrataError) -> GRPCResponse<Response>
        {
            let (metadata, head, options) = try prepareCall(endpoint)
            let failure = GRPCEncodingFailure()
            let request = failure.request(metadata: metadata, messages: messages)
            return try await oneResponse(endpoint, head: head, options: options, encodingFailure: failure) {
                calls, options in
                try await calls.clientStreaming(
                    request: request, descriptor: endpoint.request.route.method,
                    serializer: RawBytesSerializer(), deserializer: RawBytesDeserializer(), options: options,
                    onResponse: Self.contents)
            }
        }

        /// Makes the client-streaming call `endpoint` describes and calls `completion` with
        /// the result, as ``load(_:completion:)`` does for a unary call.
        /// - Returns: a handle whose `LoadTask.cancel()` cancels the call.
        @discardableResult
        public func load<Response>(
            _ endpoint: GRPCEndpoint<Response>, messages: GRPCRequestMessages,
            completion: @escaping @Sendable (Result<Response, StrataError>) -> Void
        ) -> LoadTask {
            LoadTask(
                Task {
                    do throws(StrataError) {
                        completion(.success(try await send(endpoint, messages: messages)))
                    } catch {
                        completion(.failure(error))
                    }
                })
        }

        /// Makes the bidirectional call `endpoint` describes: `messages` go out as the
        /// transport takes them while the response messages, each read through `endpoint`'s
        /// parse function, arrive in the returned stream, at the reader's pace.
        ///
        /// The call starts at once and ends with the stream; a failure (a status, the
        /// deadline, a message that cannot be encoded or parsed) ends the iteration with that
        /// ``Strata/StrataError`` after the messages that arrived before it. Cancelling the
        /// iterating task, or dropping the stream unfinished, cancels the call, and the
        /// writing with it.
        public func stream<Response: Sendable>(_ endpoint: GRPCEndpoint<Response>, messages: GRPCRequestMessages)
            -> GRPCResponseStream<Response>
        {
            stream(endpoint.request.head) { receive, heads throws(StrataError) in
                let (metadata, head, options) = try prepareCall(endpoint)
                let failure = GRPCEncodingFailure()
                let request = failure.request(metadata: metadata, messages: messages)
                try await streamedResponse(
                    endpoint, head: head, options: options, encodingFailure: failure, heads: heads, receive: receive
                ) { calls, options, handle in
                    try await calls.bidirectionalStreaming(
                        request: request, descriptor: endpoint.request.route.method,
                        serializer: RawBytesSerializer(), deserializer: RawBytesDeserializer(), options: options,
                        onResponse: handle)
                }
            }
        }
    }

    /// The first message of a streamed request that could not be encoded: grpc-swift cancels
    /// a call whose producer throws, so the call's error is read from here instead.
    final class GRPCEncodingFailure: Sendable {
        private let first = Locked<GRPCMessageEncodingError?>(nil)

        /// The encoding failure, if a message failed to encode.
        var error: GRPCMessageEncodingError? { first.withLock { $0 } }

        /// The streamed request of `messages` with `metadata`, recording an encoding failure here.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        func request(metadata: Metadata, messages: GRPCRequestMessages) -> StreamingClientRequest<[UInt8]> {
            StreamingClientRequest(metadata: metadata) { writer in
                do {
                    try await messages.produce { bytes in try await writer.write(Array(bytes)) }
                } catch let error as GRPCMessageEncodingError {
                    self.first.withLock { $0 = $0 ?? error }
                    throw error
                }
            }
        }
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    extension RequestDescription where Route == GRPCRoute {
        /// Creates the description of a client-streaming or bidirectional call: its route and
        /// metadata; the messages are given to the call (``GRPCRequestMessages``).
        public init(route: GRPCRoute, headers: HTTPFields = [:]) {
            self.init(route: route, method: .post, headers: headers)
        }
    }
#endif
