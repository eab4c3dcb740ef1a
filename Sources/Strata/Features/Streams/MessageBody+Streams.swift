import Foundation

extension MessageBody {
    /// The body's server-sent events, parsed as they arrive exactly as the WHATWG HTML
    /// standard says (a byte-order mark at the start, CR, LF and CRLF line ends, comments,
    /// `data` lines joined, `id` and `retry` rules); a block the body ends inside is
    /// dropped.
    /// - Parameter maximumEventSize: the most bytes one line, or one event's data, may
    ///   hold before the sequence ends with ``StreamFormatError/tooLarge(limit:)``.
    public func serverSentEvents(maximumEventSize: Int = 1024 * 1024) -> Records<ServerSentEvent> {
        records { ServerSentEventParser(limit: maximumEventSize) }
    }

    /// The body's lines as UTF-8 text (invalid bytes replaced), split at LF with a CR
    /// before it dropped; the last line may end with the body. Empty lines are kept.
    /// - Parameter maximumLineSize: the most bytes one line may hold before the sequence
    ///   ends with ``StreamFormatError/tooLarge(limit:)``.
    public func lines(maximumLineSize: Int = 1024 * 1024) -> Records<String> {
        records { DelimitedParser(limit: maximumLineSize, Lines()) }
    }

    func jsonLines<T: Sendable>(limit: Int, decoder: JSONDecoder, read: @escaping RecordReading<T>) -> Records<T> {
        records { DelimitedParser(limit: limit, JSONLines(decoder: decoder, read: read)) }
    }

    func jsonSequence<T: Sendable>(limit: Int, decoder: JSONDecoder, read: @escaping RecordReading<T>) -> Records<T> {
        records { DelimitedParser(limit: limit, JSONTexts(decoder: decoder, read: read)) }
    }
}

// The model kinds, as `Endpoint(request, decoding:)` reads them: app model (`DTODecodable`)
// over raw DTO (`RawDecodable`) over plain `Decodable`.

extension MessageBody {
    /// The body as JSON Lines (one JSON value a line, LF or CRLF, whitespace-only lines
    /// skipped), each line decoded into `type` as it arrives.
    ///
    /// A line that does not decode ends the sequence with
    /// ``StreamFormatError/invalidRecord(number:error:)``: its line number and the
    /// decoder's coding path.
    /// - Parameters:
    ///   - type: the model of a line.
    ///   - decoder: decodes each line.
    ///   - maximumLineSize: the most bytes one line may hold.
    @_disfavoredOverload
    public func jsonLines<T: Decodable & Sendable>(
        of type: T.Type, decoder: JSONDecoder = .strataDefault(), maximumLineSize: Int = 1024 * 1024
    ) -> Records<T> {
        jsonLines(limit: maximumLineSize, decoder: decoder, read: ModelParsing.decodable)
    }

    /// The body as JSON Lines, each line a raw-layer model (DTO).
    public func jsonLines<T: RawDecodable & Sendable>(
        of type: T.Type, decoder: JSONDecoder = .strataDefault(), maximumLineSize: Int = 1024 * 1024
    ) -> Records<T> {
        jsonLines(limit: maximumLineSize, decoder: decoder, read: ModelParsing.raw)
    }

    /// The body as JSON Lines, each line read as the model's DTO and mapped to the model.
    public func jsonLines<T: DTODecodable & Sendable>(
        of type: T.Type, decoder: JSONDecoder = .strataDefault(), maximumLineSize: Int = 1024 * 1024
    ) -> Records<T> {
        jsonLines(limit: maximumLineSize, decoder: decoder, read: ModelParsing.model)
    }

    /// The body as JSON Lines, each line an application model that is also a raw DTO:
    /// read as the application model.
    public func jsonLines<T: DTODecodable & RawDecodable & Sendable>(
        of type: T.Type, decoder: JSONDecoder = .strataDefault(), maximumLineSize: Int = 1024 * 1024
    ) -> Records<T> {
        jsonLines(limit: maximumLineSize, decoder: decoder, read: ModelParsing.model)
    }

    /// The body as a JSON text sequence (RFC 7464, `application/json-seq`): records that
    /// start with RS (0x1E) and end with LF, each decoded into `type` as it arrives.
    ///
    /// A record without its LF was cut off: the sequence ends with
    /// ``StreamFormatError/truncatedRecord(number:)`` rather than join it to the next one.
    /// A record that does not decode ends it with
    /// ``StreamFormatError/invalidRecord(number:error:)``.
    /// - Parameters:
    ///   - type: the model of a record.
    ///   - decoder: decodes each record.
    ///   - maximumRecordSize: the most bytes one record may hold.
    @_disfavoredOverload
    public func jsonSequence<T: Decodable & Sendable>(
        of type: T.Type, decoder: JSONDecoder = .strataDefault(), maximumRecordSize: Int = 1024 * 1024
    ) -> Records<T> {
        jsonSequence(limit: maximumRecordSize, decoder: decoder, read: ModelParsing.decodable)
    }

    /// The body as a JSON text sequence, each record a raw-layer model (DTO).
    public func jsonSequence<T: RawDecodable & Sendable>(
        of type: T.Type, decoder: JSONDecoder = .strataDefault(), maximumRecordSize: Int = 1024 * 1024
    ) -> Records<T> {
        jsonSequence(limit: maximumRecordSize, decoder: decoder, read: ModelParsing.raw)
    }

    /// The body as a JSON text sequence, each record read as the model's DTO and mapped
    /// to the model.
    public func jsonSequence<T: DTODecodable & Sendable>(
        of type: T.Type, decoder: JSONDecoder = .strataDefault(), maximumRecordSize: Int = 1024 * 1024
    ) -> Records<T> {
        jsonSequence(limit: maximumRecordSize, decoder: decoder, read: ModelParsing.model)
    }

    /// The body as a JSON text sequence, each record an application model that is also a
    /// raw DTO: read as the application model.
    public func jsonSequence<T: DTODecodable & RawDecodable & Sendable>(
        of type: T.Type, decoder: JSONDecoder = .strataDefault(), maximumRecordSize: Int = 1024 * 1024
    ) -> Records<T> {
        jsonSequence(limit: maximumRecordSize, decoder: decoder, read: ModelParsing.model)
    }
}
