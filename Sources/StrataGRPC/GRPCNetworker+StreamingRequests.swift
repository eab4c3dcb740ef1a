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
        /// - Throws: ``StrataCore/StrataError`` naming the stage that failed:
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
        /// messages' sending included. A call retried by ``GRPCRetryInterceptor`` (or sent
        /// again by ``GRPCAuthenticationInterceptor``) replays the messages it sent, as long as
        /// it sent no more than ``Configuration/maxReplayedMessages``; a call that sent more
        /// before it failed is not retried, and its `RetrySummary` says
        /// `bodyNotReplayable`.
        /// - Throws: ``StrataCore/StrataError`` naming the stage that failed.
        public func response<Response>(for endpoint: GRPCEndpoint<Response>, messages: GRPCRequestMessages)
            async throws(StrataError) -> GRPCResponse<Response>
        {
            let (metadata, head, options) = try prepareCall(endpoint)
            let streamed = streamedRequest(messages)
            let request = streamed.request(metadata: metadata)
            return try await oneResponse(endpoint, head: head, options: options, streamed: streamed) {
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

        /// `messages` as a call sends them, replayable up to ``Configuration/maxReplayedMessages``.
        private func streamedRequest(_ messages: GRPCRequestMessages) -> GRPCStreamedRequest {
            GRPCStreamedRequest(
                messages,
                replayLimit: min(max(configuration.maxReplayedMessages, 0), Configuration.replayBufferCapacity))
        }

        /// Makes the bidirectional call `endpoint` describes: `messages` go out as the
        /// transport takes them while the response messages, each read through `endpoint`'s
        /// parse function, arrive in the returned stream, at the reader's pace.
        ///
        /// The call starts at once and ends with the stream; a failure (a status, the
        /// deadline, a message that cannot be encoded or parsed) ends the iteration with that
        /// ``StrataCore/StrataError`` after the messages that arrived before it. Cancelling the
        /// iterating task, or dropping the stream unfinished, cancels the call, and the
        /// writing with it.
        public func stream<Response: Sendable>(_ endpoint: GRPCEndpoint<Response>, messages: GRPCRequestMessages)
            -> GRPCResponseStream<Response>
        {
            stream(endpoint) { handoff, heads throws(StrataError) in
                let (metadata, head, options) = try prepareCall(endpoint)
                let streamed = streamedRequest(messages)
                let request = streamed.request(metadata: metadata)
                try await streamedResponse(
                    endpoint, head: head, options: options, streamed: streamed, handoff: handoff, heads: heads
                ) { calls, options, handle in
                    try await calls.bidirectionalStreaming(
                        request: request, descriptor: endpoint.request.route.method,
                        serializer: RawBytesSerializer(), deserializer: RawBytesDeserializer(), options: options,
                        onResponse: handle)
                }
            }
        }
    }

    /// A client-streaming or bidirectional call's messages as grpc-swift takes them, and what
    /// the call needs to know of them afterwards: the first message that could not be encoded
    /// (grpc-swift cancels a call whose producer throws, so the call's error is read from
    /// here), and whether the messages sent so far can all be sent again.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    final class GRPCStreamedRequest: Sendable {
        /// The most messages a retry replays (at most grpc-swift's replay buffer).
        let replayLimit: Int
        private let messages: GRPCRequestMessages
        private let state = Locked<(failure: GRPCMessageEncodingError?, sent: Int)>((nil, 0))

        init(_ messages: GRPCRequestMessages, replayLimit: Int) {
            self.messages = messages
            self.replayLimit = replayLimit
        }

        /// The encoding failure, if a message failed to encode.
        var encodingFailure: GRPCMessageEncodingError? { state.withLock { $0.failure } }

        /// Whether every message handed to the call so far can be sent again: no more than
        /// ``replayLimit``.
        var isReplayable: Bool { state.withLock { $0.sent <= replayLimit } }

        /// The streamed request of the messages with `metadata`. A message is counted before
        /// it is written, so that a call is never thought replayable once its buffer may have
        /// let go of the first message.
        func request(metadata: Metadata) -> StreamingClientRequest<[UInt8]> {
            StreamingClientRequest(metadata: metadata) { writer in
                do {
                    try await self.messages.produce { bytes in
                        self.state.withLock { $0.sent += 1 }
                        try await writer.write(bytes)
                    }
                } catch let error as GRPCMessageEncodingError {
                    self.state.withLock { $0.failure = $0.failure ?? error }
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
