/// Why a streamed body could not be read as events, lines or JSON records.
public enum StreamFormatError: Error, Sendable, CustomStringConvertible {
    /// One event, line or record grew past the limit (in bytes) before it ended; the
    /// stream ends rather than hold more.
    case tooLarge(limit: Int)
    /// A record did not decode. `number` is its line in a JSON Lines body (counting
    /// every line from 1) or its place in a JSON text sequence (from 1); `error` names
    /// the type and the coding path.
    case invalidRecord(number: Int, error: MappingError)
    /// A JSON text sequence's record did not end with a line feed before the next record
    /// separator or the end of the stream: it was cut off (RFC 7464, section 2.3).
    /// `number` is its place in the sequence, from 1.
    case truncatedRecord(number: Int)
    /// A JSON text sequence had bytes other than whitespace before its first record
    /// separator.
    case missingRecordSeparator

    /// A one-line description for logs.
    public var description: String {
        switch self {
        case .tooLarge(let limit): "a streamed event, line or record is larger than the limit of \(limit) bytes"
        case .invalidRecord(let number, let error): "record \(number) did not decode: \(error)"
        case .truncatedRecord(let number):
            "record \(number) of the JSON text sequence was cut off (no line feed at its end)"
        case .missingRecordSeparator: "the JSON text sequence does not start with a record separator (0x1E)"
        }
    }
}
