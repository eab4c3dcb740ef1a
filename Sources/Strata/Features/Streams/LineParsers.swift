import Foundation

/// Reads a record's bytes as a model; one of ``BodyParsing``'s readings.
typealias RecordReading<T> = @Sendable (Data, JSONDecoder) throws -> T

/// Lines that end at LF or CRLF; the last line may end with the body. Empty lines are
/// kept.
struct LinesParser: RecordParser {
    private var splitter: DelimitedSplitter

    init(limit: Int) {
        splitter = DelimitedSplitter(delimiter: 0x0A, limit: limit)
    }

    mutating func feed(_ chunk: Data, into records: inout [String]) throws {
        try chunk.withUnsafeBytes { bytes in
            try splitter.split(bytes) { line in records.append(Self.text(line)) }
        }
    }

    mutating func finish(into records: inout [String]) throws {
        try splitter.finish { line in records.append(Self.text(line)) }
    }

    /// The line as UTF-8 text (invalid bytes replaced), without a CR at its end.
    static func text(_ line: UnsafeRawBufferPointer) -> String {
        String(decoding: withoutCarriageReturn(line), as: UTF8.self)
    }
}

/// `line` without the CR of a CRLF ending.
func withoutCarriageReturn(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    line.last == 0x0D ? UnsafeRawBufferPointer(rebasing: line.dropLast()) : line
}

/// Whether `bytes` holds only JSON whitespace (none counts).
func isJSONWhitespace(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
}

/// JSON Lines (jsonlines.org, NDJSON): one JSON value a line, LF or CRLF; lines of
/// whitespace only are skipped; a line that does not decode is reported with its number.
struct JSONLinesParser<Model: Sendable>: RecordParser {
    private var splitter: DelimitedSplitter
    private var lines: JSONLines

    /// What a line becomes, apart from the splitter so that the splitter can call it.
    private struct JSONLines {
        let decoder: JSONDecoder
        let read: RecordReading<Model>
        var lineNumber = 0

        mutating func decode(_ line: UnsafeRawBufferPointer, into records: inout [Model]) throws {
            lineNumber += 1
            let line = withoutCarriageReturn(line)
            guard !isJSONWhitespace(line) else { return }
            records.append(try readRecord(Data(line), number: lineNumber, read, decoder))
        }
    }

    init(limit: Int, decoder: JSONDecoder, read: @escaping RecordReading<Model>) {
        self.splitter = DelimitedSplitter(delimiter: 0x0A, limit: limit)
        self.lines = JSONLines(decoder: decoder, read: read)
    }

    mutating func feed(_ chunk: Data, into records: inout [Model]) throws {
        var lines = self.lines
        defer { self.lines = lines }
        try chunk.withUnsafeBytes { bytes in
            try splitter.split(bytes) { line in try lines.decode(line, into: &records) }
        }
    }

    mutating func finish(into records: inout [Model]) throws {
        var lines = self.lines
        defer { self.lines = lines }
        try splitter.finish { line in try lines.decode(line, into: &records) }
    }
}

/// JSON text sequences (RFC 7464): each record starts with RS (0x1E) and ends with LF;
/// a record without its LF was cut off and is reported, never joined to the next one.
struct JSONTextSequenceParser<Model: Sendable>: RecordParser {
    private var splitter: DelimitedSplitter
    private var texts: JSONTexts

    /// What a piece between two RS becomes, apart from the splitter so that the splitter
    /// can call it.
    private struct JSONTexts {
        let decoder: JSONDecoder
        let read: RecordReading<Model>
        /// Whether the first piece (what came before the first RS) was seen.
        var pastStart = false
        var recordNumber = 0

        mutating func decode(_ piece: UnsafeRawBufferPointer, into records: inout [Model]) throws {
            guard pastStart else {
                pastStart = true
                guard isJSONWhitespace(piece) else { throw StreamFormatError.missingRecordSeparator }
                return
            }
            guard !piece.isEmpty else { return }  // several RS in a row
            recordNumber += 1
            guard piece.last == 0x0A else { throw StreamFormatError.truncatedRecord(number: recordNumber) }
            guard !isJSONWhitespace(piece) else { return }
            records.append(try readRecord(Data(piece), number: recordNumber, read, decoder))
        }
    }

    init(limit: Int, decoder: JSONDecoder, read: @escaping RecordReading<Model>) {
        self.splitter = DelimitedSplitter(delimiter: 0x1E, limit: limit)
        self.texts = JSONTexts(decoder: decoder, read: read)
    }

    mutating func feed(_ chunk: Data, into records: inout [Model]) throws {
        var texts = self.texts
        defer { self.texts = texts }
        try chunk.withUnsafeBytes { bytes in
            try splitter.split(bytes) { piece in try texts.decode(piece, into: &records) }
        }
    }

    mutating func finish(into records: inout [Model]) throws {
        var texts = self.texts
        defer { self.texts = texts }
        try splitter.finish { piece in try texts.decode(piece, into: &records) }
    }
}

/// Reads one record, reporting a failure as ``StreamFormatError/invalidRecord(number:error:)``.
func readRecord<Model>(
    _ bytes: Data, number: Int, _ read: RecordReading<Model>, _ decoder: JSONDecoder
) throws -> Model {
    do {
        return try read(bytes, decoder)
    } catch {
        throw StreamFormatError.invalidRecord(number: number, error: MappingError(type: Model.self, underlying: error))
    }
}
