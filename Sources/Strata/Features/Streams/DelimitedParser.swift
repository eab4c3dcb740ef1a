import Foundation

/// Reads a record's bytes as a model; one of ``ModelParsing``'s readings.
typealias RecordReading<T> = @Sendable (Data, JSONDecoder) throws -> T

/// What the pieces of a ``DelimitedSplitter`` become: lines, JSON lines, JSON texts.
protocol PieceReading: Sendable {
    /// What a piece becomes.
    associatedtype Record
    /// The byte that ends a piece.
    static var delimiter: UInt8 { get }
    /// Reads one piece (without its delimiter), adding what it makes to `records`.
    mutating func read(_ piece: UnsafeRawBufferPointer, into records: inout [Record]) throws
}

/// A ``RecordParser`` that splits a body at ``PieceReading/delimiter`` and reads each piece
/// with `Reading`; the bytes after the last delimiter are read at the end of the body.
struct DelimitedParser<Reading: PieceReading>: RecordParser {
    private var splitter: DelimitedSplitter
    private var reading: Reading

    init(limit: Int, _ reading: Reading) {
        self.splitter = DelimitedSplitter(delimiter: Reading.delimiter, limit: limit)
        self.reading = reading
    }

    mutating func feed(_ chunk: Data, into records: inout [Reading.Record]) throws {
        // The reading is moved out while the splitter calls it.
        var reading = self.reading
        defer { self.reading = reading }
        try chunk.withUnsafeBytes { bytes in
            try splitter.split(bytes) { piece in try reading.read(piece, into: &records) }
        }
    }

    mutating func finish(into records: inout [Reading.Record]) throws {
        var reading = self.reading
        defer { self.reading = reading }
        try splitter.finish { piece in try reading.read(piece, into: &records) }
    }
}

/// Lines that end at LF or CRLF, as UTF-8 text (invalid bytes replaced); the last line may
/// end with the body. Empty lines are kept.
struct Lines: PieceReading {
    static var delimiter: UInt8 { 0x0A }

    func read(_ line: UnsafeRawBufferPointer, into records: inout [String]) {
        records.append(String(decoding: withoutCarriageReturn(line), as: UTF8.self))
    }
}

/// JSON Lines (jsonlines.org, NDJSON): one JSON value a line, LF or CRLF; lines of
/// whitespace only are skipped; a line that does not decode is reported with its number.
struct JSONLines<Model: Sendable>: PieceReading {
    static var delimiter: UInt8 { 0x0A }
    let decoder: JSONDecoder
    let read: RecordReading<Model>
    private var lineNumber = 0

    init(decoder: JSONDecoder, read: @escaping RecordReading<Model>) {
        self.decoder = decoder
        self.read = read
    }

    mutating func read(_ line: UnsafeRawBufferPointer, into records: inout [Model]) throws {
        lineNumber += 1
        let line = withoutCarriageReturn(line)
        guard !isJSONWhitespace(line) else { return }
        records.append(try readRecord(Data(line), number: lineNumber, read, decoder))
    }
}

/// JSON text sequences (RFC 7464): each record starts with RS (0x1E) and ends with LF;
/// a record without its LF was cut off and is reported, never joined to the next one.
struct JSONTexts<Model: Sendable>: PieceReading {
    static var delimiter: UInt8 { 0x1E }
    let decoder: JSONDecoder
    let read: RecordReading<Model>
    /// Whether the first piece (what came before the first RS) was seen.
    private var pastStart = false
    private var recordNumber = 0

    init(decoder: JSONDecoder, read: @escaping RecordReading<Model>) {
        self.decoder = decoder
        self.read = read
    }

    mutating func read(_ piece: UnsafeRawBufferPointer, into records: inout [Model]) throws {
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

/// `line` without the CR of a CRLF ending.
func withoutCarriageReturn(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    line.last == 0x0D ? UnsafeRawBufferPointer(rebasing: line.dropLast()) : line
}

/// Whether `bytes` holds only JSON whitespace (none counts).
func isJSONWhitespace(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
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
