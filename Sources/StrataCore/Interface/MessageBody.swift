import Foundation

/// The body of a request or a response: bytes in memory, or a stream of chunks.
///
/// A body knows its length when it can, and says whether it can be read more than
/// once (``isReplayable``): retries and redirects can only resend a replayable body.
/// In-memory bodies and bodies made from a chunk factory (like multipart form data
/// read from files) are replayable; a response streamed from the network is not,
/// and iterating it a second time throws ``MessageBodyError/alreadyConsumed``.
public struct MessageBody: Sendable {
    /// The byte count, when it is known in advance.
    public let length: Int64?
    /// Whether the body can be iterated more than once.
    public let isReplayable: Bool
    /// The file whose bytes are exactly this body's, when it was made from one
    /// (``RequestBody/file(_:contentType:)``): a transport that can send a file by itself
    /// (`URLSession`'s upload from a file) may send it from there instead of reading the
    /// chunks.
    public private(set) var file: URL?
    /// Told how many bytes have gone so far by a transport that sends the body by its own
    /// means (from ``file``); reading the chunks tells it nothing.
    public private(set) var sentBytesHandler: (@Sendable (Int64) -> Void)?
    private let source: Source

    private enum Source: Sendable {
        case bytes(Data)
        case chunks(@Sendable () -> any ChunkSource)
        /// The source of a one-shot body, made for the first reader only (a reading starts
        /// there, not before): ``makeAsyncIterator()`` takes the factory out, and every later
        /// reader finds `nil` and reports ``MessageBodyError/alreadyConsumed``.
        case oneShot(Locked<(@Sendable () -> any ChunkSource)?>)
    }

    /// A body holding `data` in memory.
    public init(_ data: Data) {
        self.length = Int64(data.count)
        self.isReplayable = true
        self.source = .bytes(data)
    }

    /// A body holding the UTF-8 bytes of `string`.
    public init(_ string: String) {
        self.init(Data(string.utf8))
    }

    /// A replayable body whose chunks come from a fresh sequence each time it is read.
    /// - Parameters:
    ///   - length: the exact byte count, when known.
    ///   - makeChunks: returns a new sequence of the body's chunks on every call.
    public init<Chunks: AsyncSequence & Sendable>(
        length: Int64?,
        makeChunks: @escaping @Sendable () -> Chunks
    ) where Chunks.Element == Data {
        self.length = length
        self.isReplayable = true
        self.source = .chunks { IteratorChunkSource(makeChunks().makeAsyncIterator()) }
    }

    /// A body that streams `chunks` once, for example a response read from the network.
    /// - Parameters:
    ///   - length: the exact byte count, when known (for example from `Content-Length`).
    ///   - chunks: the sequence of chunks; it is iterated at most once.
    public init<Chunks: AsyncSequence & Sendable>(
        length: Int64?,
        streaming chunks: Chunks
    ) where Chunks.Element == Data {
        self.init(length: length, oneShot: { IteratorChunkSource(chunks.makeAsyncIterator()) })
    }

    /// A one-shot body read from `source`.
    init(length: Int64?, source: any ChunkSource) {
        self.init(length: length, oneShot: { source })
    }

    /// A one-shot body read from the source `makeSource` makes for its first reader.
    private init(length: Int64?, oneShot makeSource: @escaping @Sendable () -> any ChunkSource) {
        self.length = length
        self.isReplayable = false
        self.source = .oneShot(Locked(makeSource))
    }

    /// This body, its bytes also found in `file` (see ``file``), with a handler for the
    /// bytes a transport sends from there.
    package func sent(from file: URL?, reporting sentBytesHandler: (@Sendable (Int64) -> Void)? = nil) -> MessageBody {
        var body = self
        body.file = file
        body.sentBytesHandler = sentBytesHandler
        return body
    }

    /// The bytes, when the body is held in memory; `nil` for a streamed body.
    public var bufferedData: Data? {
        if case .bytes(let data) = source { return data }
        return nil
    }

    /// Reads the whole body, refusing to hold more than `maxBytes`.
    /// - Throws: ``MessageBodyError/tooLarge(limit:)`` past the limit (before reading
    ///   anything when the length is known), ``MessageBodyError/alreadyConsumed`` for a
    ///   streamed body read twice, or the stream's own error.
    public func collect(upTo maxBytes: Int) async throws -> Data {
        if let length, length > Int64(maxBytes) { throw MessageBodyError.tooLarge(limit: maxBytes) }
        if case .bytes(let data) = source { return data }
        var result = Data()
        for try await chunk in self {
            guard result.count + chunk.count <= maxBytes else { throw MessageBodyError.tooLarge(limit: maxBytes) }
            if result.isEmpty, chunk.startIndex == 0, length == nil || length == Int64(chunk.count) {
                result = chunk  // the whole body, or the first of an unknown number: no copy
            } else {
                if result.isEmpty, let length { result.reserveCapacity(Int(length)) }
                result.append(chunk)
            }
        }
        return result
    }
}

extension MessageBody: AsyncSequence {
    /// A chunk of the body's bytes.
    public typealias Element = Data

    /// Iterates the body's chunks.
    ///
    /// Copies of an iterator share its position. Reading a streamed body from two
    /// places at once throws ``MessageBodyError/alreadyConsumed`` for the later read,
    /// and after a failed read the body ends.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        fileprivate var pending: Data?
        fileprivate var upstream: (any ChunkSource)?
        fileprivate var consumed = false

        /// The next chunk, or `nil` at the end.
        /// - Throws: ``MessageBodyError/alreadyConsumed`` when another reader took a
        ///   streamed body or is reading it right now; otherwise the stream's own error.
        public mutating func next() async throws -> Data? {
            if consumed { throw MessageBodyError.alreadyConsumed }
            if let chunk = pending {
                pending = nil
                return chunk.isEmpty ? nil : chunk
            }
            return try await upstream?.next()
        }
    }

    /// Starts reading the body.
    public func makeAsyncIterator() -> AsyncIterator {
        switch source {
        case .bytes(let data): AsyncIterator(pending: data)
        case .chunks(let make): AsyncIterator(upstream: make())
        case .oneShot(let claimable):
            if let makeSource = claimable.withLock({ make in
                defer { make = nil }
                return make
            }) {
                AsyncIterator(upstream: makeSource())
            } else {
                AsyncIterator(consumed: true)
            }
        }
    }
}

/// Why a body could not be read.
public enum MessageBodyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body holds more than the given number of bytes.
    case tooLarge(limit: Int)
    /// A streamed body was read a second time.
    case alreadyConsumed

    /// A one-line description for logs.
    public var description: String {
        switch self {
        case .tooLarge(let limit): "the body is larger than the limit of \(limit) bytes"
        case .alreadyConsumed: "the streamed body was already read; it cannot be read twice"
        }
    }
}
