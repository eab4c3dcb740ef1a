import Foundation

/// The event stream interpretation of the WHATWG HTML standard ("Server-sent events",
/// section 9.2.6), over bytes as they arrive.
///
/// Bytes are decoded as UTF-8 with invalid sequences replaced, per field: a line's
/// terminators, its colon and the byte-order mark are ASCII or whole sequences, so that
/// gives the same text as decoding the whole stream first. What a reconnection needs
/// (``lastEventID``, ``reconnectionTime``) survives ``startNewStream()``.
struct ServerSentEventParser: RecordParser {
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let colon = UInt8(ascii: ":")
    private static let space = UInt8(ascii: " ")

    /// The most bytes one line, or one event's data, may hold.
    let limit: Int
    private var lines: EventStreamLineSplitter
    /// The bytes seen at the start of the stream while they may still be a byte-order
    /// mark; `nil` once that is decided.
    private var streamStart: [UInt8]? = []
    private var data: [UInt8] = []
    private var eventType: [UInt8] = []
    private var blockRetry: Duration?
    /// The standard's "last event ID buffer": what the block's `id` fields set.
    private var lastEventIDBuffer = ""
    /// The standard's "last event ID string", set from the buffer when a block ends (with
    /// or without data), and sent as `Last-Event-ID` on reconnection; empty for none.
    private(set) var lastEventID = ""
    /// The reconnection time the stream's last valid `retry` field set, if any did.
    private(set) var reconnectionTime: Duration?

    init(limit: Int) {
        self.limit = limit
        self.lines = EventStreamLineSplitter(limit: limit)
    }

    /// Parses `chunk`, adding the events it completes to `events`.
    mutating func feed(_ chunk: Data, into events: inout [ServerSentEvent]) throws {
        try chunk.withUnsafeBytes { bytes in try feed(bytes, into: &events) }
    }

    /// The end of a stream: an event whose block did not end with a blank line is
    /// dropped, as the standard says.
    mutating func finish(into events: inout [ServerSentEvent]) throws {
        startNewStream()
    }

    /// Forgets the unfinished line and block (an `id` it set included), for the next
    /// connection's stream; the last event ID and the reconnection time stay.
    mutating func startNewStream() {
        lines.reset()
        lastEventIDBuffer = lastEventID
        streamStart = []
        data.removeAll(keepingCapacity: true)
        eventType.removeAll(keepingCapacity: true)
        blockRetry = nil
    }

    private mutating func feed(_ chunk: UnsafeRawBufferPointer, into events: inout [ServerSentEvent]) throws {
        var chunk = chunk
        if var seen = streamStart {
            let taken = min(Self.byteOrderMark.count - seen.count, chunk.count)
            seen.append(contentsOf: chunk[..<taken])
            chunk = UnsafeRawBufferPointer(rebasing: chunk[taken...])
            if seen.count < Self.byteOrderMark.count, Self.byteOrderMark.starts(with: seen) {
                streamStart = seen
                return
            }
            streamStart = nil
            if seen != Self.byteOrderMark {
                try seen.withUnsafeBytes { start in try feedLines(start, into: &events) }
            }
        }
        try feedLines(chunk, into: &events)
    }

    private mutating func feedLines(_ bytes: UnsafeRawBufferPointer, into events: inout [ServerSentEvent]) throws {
        // The splitter is moved out while it calls back into `self` (no copy of its buffer).
        var lines = EventStreamLineSplitter(limit: limit)
        swap(&lines, &self.lines)
        defer { swap(&lines, &self.lines) }
        try lines.split(bytes) { line in try process(line, into: &events) }
    }

    private mutating func process(_ line: UnsafeRawBufferPointer, into events: inout [ServerSentEvent]) throws {
        guard let first = line.first else { return dispatch(into: &events) }
        if first == Self.colon { return }  // a comment
        let colonIndex = line.firstIndex(of: Self.colon)
        let name = UnsafeRawBufferPointer(rebasing: line[..<(colonIndex ?? line.count)])
        var valueStart = colonIndex.map { $0 + 1 } ?? line.count
        if valueStart < line.count, line[valueStart] == Self.space { valueStart += 1 }
        let value = UnsafeRawBufferPointer(rebasing: line[valueStart...])
        switch name.count {
        case 4 where name.elementsEqual("data".utf8):
            guard data.count + value.count + 1 <= limit else { throw StreamFormatError.tooLarge(limit: limit) }
            data.append(contentsOf: value)
            data.append(0x0A)
        case 5 where name.elementsEqual("event".utf8):
            eventType.removeAll(keepingCapacity: true)
            eventType.append(contentsOf: value)
        case 2 where name.elementsEqual("id".utf8):
            if !value.contains(0) { lastEventIDBuffer = String(decoding: value, as: UTF8.self) }
        case 5 where name.elementsEqual("retry".utf8):
            if let milliseconds = Self.milliseconds(value) {
                reconnectionTime = .milliseconds(milliseconds)
                blockRetry = reconnectionTime
            }
        default:
            break  // unknown fields are ignored
        }
    }

    /// The `retry` field's value when it is all ASCII digits (at least one), saturating
    /// at `Int64.max`.
    private static func milliseconds(_ value: UnsafeRawBufferPointer) -> Int64? {
        guard !value.isEmpty else { return nil }
        var result: Int64 = 0
        for byte in value {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            result = overflow1 || overflow2 ? .max : sum
        }
        return result
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        lastEventID = lastEventIDBuffer
        defer {
            data.removeAll(keepingCapacity: true)
            eventType.removeAll(keepingCapacity: true)
            blockRetry = nil
        }
        guard !data.isEmpty else { return }
        data.removeLast()  // the line feed after the last data line
        events.append(
            ServerSentEvent(
                event: eventType.isEmpty ? nil : String(decoding: eventType, as: UTF8.self),
                data: String(decoding: data, as: UTF8.self),
                id: lastEventID.isEmpty ? nil : lastEventID,
                retry: blockRetry))
    }
}
