import Foundation

private let lineFeed: UInt8 = 0x0A
private let carriageReturn: UInt8 = 0x0D

/// Splits a stream of chunks into lines that end at CR, LF or CRLF, as event streams
/// do, a CRLF split between two chunks included. Lines are handed out as borrowed bytes:
/// a line inside one chunk is not copied.
struct EventStreamLineSplitter {
    /// The most bytes one line may hold.
    let limit: Int
    /// The start of a line whose end has not arrived yet.
    private var partial: [UInt8] = []
    /// The last chunk ended with a CR: a LF at the start of the next one ends no line.
    private var afterCarriageReturn = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Calls `line` with each line that `chunk` completes, without its terminator.
    /// - Throws: ``StreamFormatError/tooLarge(limit:)`` for a line longer than ``limit``,
    ///   or what `line` throws.
    mutating func split(
        _ chunk: UnsafeRawBufferPointer,
        _ line: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let count = chunk.count
        guard count > 0 else { return }
        var start = 0
        if afterCarriageReturn {
            afterCarriageReturn = false
            if chunk[0] == lineFeed { start = 1 }
        }
        var index = start
        while index < count {
            let byte = chunk[index]
            if byte == lineFeed || byte == carriageReturn {
                try emit(UnsafeRawBufferPointer(rebasing: chunk[start..<index]), line)
                if byte == carriageReturn {
                    if index + 1 == count {
                        afterCarriageReturn = true
                    } else if chunk[index + 1] == lineFeed {
                        index += 1
                    }
                }
                start = index + 1
            }
            index += 1
        }
        if start < count { try keep(UnsafeRawBufferPointer(rebasing: chunk[start..<count])) }
    }

    /// Drops an unfinished line, for a new stream.
    mutating func reset() {
        partial.removeAll(keepingCapacity: true)
        afterCarriageReturn = false
    }

    private mutating func keep(_ bytes: UnsafeRawBufferPointer) throws {
        guard partial.count + bytes.count <= limit else { throw StreamFormatError.tooLarge(limit: limit) }
        partial.append(contentsOf: bytes)
    }

    private mutating func emit(
        _ end: UnsafeRawBufferPointer,
        _ line: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        if partial.isEmpty {
            guard end.count <= limit else { throw StreamFormatError.tooLarge(limit: limit) }
            try line(end)
        } else {
            try keep(end)
            defer { partial.removeAll(keepingCapacity: true) }
            try partial.withUnsafeBytes(line)
        }
    }
}

/// Splits a stream of chunks at every occurrence of one delimiter byte (LF for lines,
/// RS for JSON text sequences). The pieces are handed out as borrowed bytes, without
/// the delimiter; a piece inside one chunk is not copied.
struct DelimitedSplitter {
    /// The byte that ends a piece.
    let delimiter: UInt8
    /// The most bytes one piece may hold.
    let limit: Int
    /// The start of a piece whose delimiter has not arrived yet.
    private var partial: [UInt8] = []

    init(delimiter: UInt8, limit: Int) {
        self.delimiter = delimiter
        self.limit = limit
    }

    /// Calls `piece` with each piece that `chunk` completes.
    /// - Throws: ``StreamFormatError/tooLarge(limit:)`` for a piece longer than ``limit``,
    ///   or what `piece` throws.
    mutating func split(
        _ chunk: UnsafeRawBufferPointer,
        _ piece: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let base = chunk.baseAddress else { return }
        var start = 0
        while start < chunk.count,
            let found = memchr(base + start, Int32(delimiter), chunk.count - start)
        {
            let end = base.distance(to: UnsafeRawPointer(found))
            let bytes = UnsafeRawBufferPointer(rebasing: chunk[start..<end])
            if partial.isEmpty {
                guard bytes.count <= limit else { throw StreamFormatError.tooLarge(limit: limit) }
                try piece(bytes)
            } else {
                try keep(bytes)
                defer { partial.removeAll(keepingCapacity: true) }
                try partial.withUnsafeBytes(piece)
            }
            start = end + 1
        }
        if start < chunk.count { try keep(UnsafeRawBufferPointer(rebasing: chunk[start...])) }
    }

    /// Calls `piece` with the bytes after the last delimiter, when there are any: the
    /// stream ended without one.
    mutating func finish(_ piece: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !partial.isEmpty else { return }
        defer { partial.removeAll() }
        try partial.withUnsafeBytes(piece)
    }

    private mutating func keep(_ bytes: UnsafeRawBufferPointer) throws {
        guard partial.count + bytes.count <= limit else { throw StreamFormatError.tooLarge(limit: limit) }
        partial.append(contentsOf: bytes)
    }
}
