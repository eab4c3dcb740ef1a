import Foundation

/// The events of a sequence with each `data` decoded as JSON into a model, up to an
/// optional terminator (the `[DONE]` that chat-completion streams end with).
///
/// A `data` that does not decode ends the sequence: over
/// `Networker.events(_:)` with a
/// ``StrataError`` of kind ``StrataError/Kind/decoding``, over a body's
/// ``MessageBody/serverSentEvents(maximumEventSize:)`` with
/// ``StreamFormatError/invalidRecord(number:error:)`` (the event's place, from 1).
public struct DecodedEvents<Base: AsyncSequence & Sendable, Model: Sendable>: AsyncSequence, Sendable
where Base.Element == ServerSentEvent {
    let base: Base
    let decoder: JSONDecoder
    let read: RecordReading<Model>
    let terminator: String?

    /// Reads events and decodes them.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var events: Base.AsyncIterator
        private let sequence: DecodedEvents
        private var count = 0
        private var isFinished = false

        init(_ sequence: DecodedEvents) {
            self.sequence = sequence
            self.events = sequence.base.makeAsyncIterator()
        }

        /// The next event's model, or `nil` after the terminator or at the end.
        public mutating func next() async throws -> Model? {
            guard !isFinished, let event = try await events.next() else { return nil }
            if event.data == sequence.terminator {
                isFinished = true
                return nil
            }
            count += 1
            do {
                return try readRecord(Data(event.data.utf8), number: count, sequence.read, sequence.decoder)
            } catch {
                isFinished = true
                guard Base.self == ServerSentEventStream.self,
                    case StreamFormatError.invalidRecord(_, let mapping) = error
                else {
                    throw error
                }
                throw StrataError(parsing: mapping, as: Model.self, body: Data(event.data.utf8))
            }
        }
    }

    /// Starts reading the events.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(self)
    }
}

// The model kinds, as `Endpoint(request, decoding:)` reads them.

extension AsyncSequence where Element == ServerSentEvent, Self: Sendable {
    /// Each event's `data` decoded as JSON into `type`, until an event whose `data` is
    /// `terminator` (which ends the sequence and is not decoded).
    ///
    /// ```swift
    /// for try await chunk in networker.events(endpoint).decoding(ChatChunk.self, until: "[DONE]") {
    ///     print(chunk.text, terminator: "")
    /// }
    /// ```
    /// - Parameters:
    ///   - type: the model of an event's data.
    ///   - decoder: decodes each event's data.
    ///   - terminator: the `data` that ends the stream, such as `[DONE]`; `nil` for none.
    @_disfavoredOverload
    public func decoding<T: Decodable & Sendable>(
        _ type: T.Type, decoder: JSONDecoder = .strataDefault(), until terminator: String? = nil
    ) -> DecodedEvents<Self, T> {
        DecodedEvents(base: self, decoder: decoder, read: ModelParsing.decodable, terminator: terminator)
    }

    /// Each event's `data` as a raw-layer model (DTO), until `terminator`.
    public func decoding<T: RawDecodable & Sendable>(
        _ type: T.Type, decoder: JSONDecoder = .strataDefault(), until terminator: String? = nil
    ) -> DecodedEvents<Self, T> {
        DecodedEvents(base: self, decoder: decoder, read: ModelParsing.raw, terminator: terminator)
    }

    /// Each event's `data` read as the model's DTO and mapped to the model, until
    /// `terminator`.
    public func decoding<T: DTODecodable & Sendable>(
        _ type: T.Type, decoder: JSONDecoder = .strataDefault(), until terminator: String? = nil
    ) -> DecodedEvents<Self, T> {
        DecodedEvents(base: self, decoder: decoder, read: ModelParsing.model, terminator: terminator)
    }

    /// Each event's `data` as an application model that is also a raw DTO (read as the
    /// application model), until `terminator`.
    public func decoding<T: DTODecodable & RawDecodable & Sendable>(
        _ type: T.Type, decoder: JSONDecoder = .strataDefault(), until terminator: String? = nil
    ) -> DecodedEvents<Self, T> {
        DecodedEvents(base: self, decoder: decoder, read: ModelParsing.model, terminator: terminator)
    }
}
