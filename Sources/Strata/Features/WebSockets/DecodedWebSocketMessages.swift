import Foundation

/// The messages of a ``WebSocket`` decoded as JSON into a model, by the model layers of
/// HTTP bodies: a text message's UTF-8 or a binary message's bytes.
///
/// A message that does not decode ends the sequence with a ``StrataError`` of kind
/// ``StrataError/Kind/decoding`` (``StrataError/Kind/mapping`` when the DTO read but the
/// model refused it), with the message as the error's body; the socket stays open.
public struct DecodedWebSocketMessages<Model: Sendable>: AsyncSequence, Sendable {
    let messages: WebSocket.Messages
    let decoder: JSONDecoder
    let read: @Sendable (Data, JSONDecoder) throws -> Model

    /// Reads messages and decodes them.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var messages: WebSocket.Messages.AsyncIterator
        private let sequence: DecodedWebSocketMessages
        private var isFinished = false

        init(_ sequence: DecodedWebSocketMessages) {
            self.sequence = sequence
            self.messages = sequence.messages.makeAsyncIterator()
        }

        /// The next message's model, or `nil` once the connection closed normally.
        /// - Throws: ``StrataError``.
        public mutating func next() async throws -> Model? {
            guard !isFinished, let message = try await messages.next() else { return nil }
            let bytes = message.data
            do {
                return try sequence.read(bytes, sequence.decoder)
            } catch {
                isFinished = true
                throw StrataError(parsing: error, as: Model.self, body: bytes)
            }
        }
    }

    /// Starts reading the messages.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(self)
    }
}

extension WebSocket.Messages {
    /// Each message decoded as JSON into `type`.
    ///
    /// ```swift
    /// for try await update in socket.messages.decoding(PriceUpdate.self) {
    ///     print(update.symbol, update.price)
    /// }
    /// ```
    @_disfavoredOverload
    public func decoding<T: Decodable & Sendable>(
        _ type: T.Type, decoder: JSONDecoder = .strataDefault()
    ) -> DecodedWebSocketMessages<T> {
        DecodedWebSocketMessages(messages: self, decoder: decoder, read: ModelParsing.decodable)
    }

    /// Each message as a raw-layer model (DTO).
    public func decoding<T: RawDecodable & Sendable>(
        _ type: T.Type, decoder: JSONDecoder = .strataDefault()
    ) -> DecodedWebSocketMessages<T> {
        DecodedWebSocketMessages(messages: self, decoder: decoder, read: ModelParsing.raw)
    }

    /// Each message read as the model's DTO and mapped to the model.
    public func decoding<T: DTODecodable & Sendable>(
        _ type: T.Type, decoder: JSONDecoder = .strataDefault()
    ) -> DecodedWebSocketMessages<T> {
        DecodedWebSocketMessages(messages: self, decoder: decoder, read: ModelParsing.model)
    }

    /// Each message as an application model that is also a raw DTO (read as the model).
    public func decoding<T: DTODecodable & RawDecodable & Sendable>(
        _ type: T.Type, decoder: JSONDecoder = .strataDefault()
    ) -> DecodedWebSocketMessages<T> {
        DecodedWebSocketMessages(messages: self, decoder: decoder, read: ModelParsing.model)
    }
}
