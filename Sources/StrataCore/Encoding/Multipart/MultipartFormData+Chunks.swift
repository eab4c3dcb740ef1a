import Foundation

extension MultipartFormData {
    /// The encoded body of a ``MultipartFormData`` as an asynchronous sequence of chunks;
    /// made by ``MultipartFormData/makeChunks(chunkSize:)``.
    ///
    /// The sequence is a `Sendable` value and replayable: each iterator reads the whole
    /// body from the start, independently of other iterators.
    public struct Chunks: AsyncSequence, Sendable {
        /// A chunk of encoded bytes.
        public typealias Element = Data
        /// Iteration throws ``MultipartError`` or `CancellationError`.
        public typealias Failure = any Error

        let segments: [MultipartSegment]
        let chunkSize: Int

        /// Starts a fresh read of the body.
        public func makeAsyncIterator() -> Iterator {
            Iterator(reader: MultipartBodyReader(segments: segments), chunkSize: chunkSize)
        }

        /// Reads one pass over the body. Not `Sendable`: it owns the open file handle.
        public struct Iterator: AsyncIteratorProtocol {
            /// A chunk of encoded bytes.
            public typealias Element = Data
            /// Iteration throws ``MultipartError`` or `CancellationError`.
            public typealias Failure = any Error

            var reader: MultipartBodyReader
            let chunkSize: Int

            /// The next chunk, or `nil` after the last one (and after an error).
            public mutating func next() async throws -> Data? {
                guard !reader.isFinished else { return nil }
                if Task.isCancelled {
                    reader.finish()
                    throw CancellationError()
                }
                return try reader.read(maxBytes: chunkSize)
            }
        }
    }
}

/// A contiguous run of bytes in an encoded multipart body: either bytes in memory or a
/// whole file. A form's body is the concatenation of its segments.
enum MultipartSegment: Sendable {
    /// Bytes held in memory.
    case bytes(Data)
    /// The whole file at the URL, which must still have `size` bytes when it is read.
    case file(URL, size: Int64)

    /// The number of bytes the segment contributes.
    var byteCount: Int64 {
        switch self {
        case .bytes(let data): Int64(data.count)
        case .file(_, let size): size
        }
    }
}

extension MultipartFormData {
    /// The body as segments: for each part `--boundary CRLF headers CRLF`, the body and a
    /// CRLF, then the closing `--boundary-- CRLF`.
    var segments: [MultipartSegment] {
        var segments: [MultipartSegment] = []
        segments.reserveCapacity(parts.count * 3 + 1)
        for part in parts {
            segments.append(.bytes(Data("--\(boundary)\r\n\(part.headers)\r\n".utf8)))
            switch part.body {
            case .data(let data): segments.append(.bytes(data))
            case .file(let url, let size): segments.append(.file(url, size: size))
            }
            segments.append(.bytes(Data("\r\n".utf8)))
        }
        segments.append(.bytes(Data("--\(boundary)--\r\n".utf8)))
        return segments
    }

    /// The exact size of the encoded body in bytes, computed without reading any file.
    ///
    /// File parts count with the size they had when they were appended. `nil` only when
    /// the total cannot be represented (it would overflow `Int64`).
    public var contentLength: Int64? {
        var total: Int64 = 0
        for segment in segments {
            let (sum, overflow) = total.addingReportingOverflow(segment.byteCount)
            if overflow { return nil }
            total = sum
        }
        return total
    }
}

/// Reads an encoded multipart body front to back, opening each file only when its turn
/// comes and reading it incrementally. Both ``MultipartFormData/encodedData()`` and
/// ``MultipartFormData/Chunks`` use it, so they produce the same bytes.
///
/// Not `Sendable`: it owns an open `FileHandle` while a file is being read. A reader
/// that is dropped closes its file, because `FileHandle(forReadingFrom:)` closes on deinit.
struct MultipartBodyReader {
    private let segments: [MultipartSegment]
    /// The segment being read.
    private var index = 0
    /// How many bytes of the current segment have been read.
    private var offset: Int64 = 0
    /// The current file segment's handle, once opened.
    private var handle: FileHandle?
    /// Set at the end of the body, after an error, or on cancellation.
    private(set) var isFinished = false

    /// Creates a reader positioned at the start of `segments`.
    init(segments: [MultipartSegment]) {
        self.segments = segments
    }

    /// The next at most `maxBytes` bytes (at least 1), or `nil` at the end of the body.
    /// Chunks are full-sized except the last. After an error it returns `nil`.
    mutating func read(maxBytes: Int) throws -> Data? {
        var chunk = Data()
        chunk.reserveCapacity(min(maxBytes, 1 << 20))
        try read(maxBytes: maxBytes, appendingTo: &chunk)
        return chunk.isEmpty ? nil : chunk
    }

    /// Appends the next at most `maxBytes` bytes to `buffer`; appends nothing at the end.
    mutating func read(maxBytes: Int, appendingTo buffer: inout Data) throws {
        guard !isFinished else { return }
        do {
            var appended = 0
            while appended < maxBytes, index < segments.count {
                let wanted = maxBytes - appended
                switch segments[index] {
                case .bytes(let data):
                    appended += readBytes(data, wanted: wanted, into: &buffer)
                case .file(let url, let size):
                    appended += try readFile(url, size: size, wanted: wanted, into: &buffer)
                }
            }
            if index == segments.count { finish() }
        } catch {
            finish()
            throw error
        }
    }

    /// Stops reading and closes any open file; later reads return nothing.
    mutating func finish() {
        isFinished = true
        closeFile()
    }

    private mutating func readBytes(_ data: Data, wanted: Int, into buffer: inout Data) -> Int {
        let start = data.startIndex + Int(offset)
        let count = min(wanted, data.endIndex - start)
        buffer.append(data[start..<start + count])
        offset += Int64(count)
        if offset == Int64(data.count) { advance() }
        return count
    }

    private mutating func readFile(_ url: URL, size: Int64, wanted: Int, into buffer: inout Data) throws -> Int {
        let handle = try self.handle ?? Self.open(url, expectedSize: size)
        self.handle = handle
        let count = Int(min(Int64(wanted), size - offset))
        var bytes = Data()
        if count > 0 {
            bytes = try Self.read(handle, upToCount: count, from: url)
            guard !bytes.isEmpty else {
                throw MultipartError.fileChanged(url, expected: size, actual: offset)
            }
            buffer.append(bytes)
            offset += Int64(bytes.count)
        }
        if offset == size {
            // The file may have grown since it was opened: it must end exactly here.
            guard try Self.read(handle, upToCount: 1, from: url).isEmpty else {
                let actual = (try? handle.seekToEnd()).flatMap { Int64(exactly: $0) } ?? size + 1
                throw MultipartError.fileChanged(url, expected: size, actual: actual)
            }
            closeFile()
            advance()
        }
        return bytes.count
    }

    private mutating func advance() {
        index += 1
        offset = 0
    }

    private mutating func closeFile() {
        // Closing a file opened only for reading cannot lose data; a failure is ignored.
        try? handle?.close()
        handle = nil
    }

    /// Opens `url` after checking that it is still a regular file of the expected size
    /// (checking first also avoids blocking on a pipe that replaced the file).
    private static func open(_ url: URL, expectedSize: Int64) throws -> FileHandle {
        let size = try MultipartFileInfo.size(ofRegularFileAt: url)
        guard size == expectedSize else {
            throw MultipartError.fileChanged(url, expected: expectedSize, actual: size)
        }
        do {
            return try FileHandle(forReadingFrom: url)
        } catch {
            throw MultipartError.readFailed(url, reason: String(describing: error))
        }
    }

    private static func read(_ handle: FileHandle, upToCount count: Int, from url: URL) throws -> Data {
        do {
            return try handle.read(upToCount: count) ?? Data()
        } catch {
            throw MultipartError.readFailed(url, reason: String(describing: error))
        }
    }
}
