#if Compression
    import CompressNIO
    import Foundation
    import NIOCore
    import Strata

    /// One gzip stream (RFC 1952) written chunk by chunk through zlib, into a fixed window:
    /// the memory a stream holds is zlib's state (about 256 KiB at the default memory level)
    /// plus the window and the compressed bytes of the chunk in hand, whatever the length of
    /// the whole.
    ///
    /// Not `Sendable`: zlib's stream state may be touched by one thread at a time. It is
    /// owned by the one iterator that reads a body (``GzipChunks``), which a
    /// `MessageBody` hands to one reader at a time.
    final class GzipDeflater {
        /// How many compressed bytes are gathered before they are handed on (64 KiB).
        static let windowSize = 64 * 1024

        private let zlib: ZlibCompressor
        private var window: ByteBuffer
        /// An empty input, for finishing the stream (zlib reads nothing from it).
        private var nothing = ByteBufferAllocator().buffer(capacity: 1)

        /// A stream at `level`.
        /// - Throws: `CompressNIOError` when zlib cannot allocate its state.
        init(level: GzipLevel) throws {
            let configuration = ZlibConfiguration(
                windowSize: 15, compressionLevel: Int32(level.value), memoryLevel: 8, strategy: .default)
            self.zlib = try ZlibCompressor(algorithm: .gzip, configuration: configuration)
            self.window = ByteBufferAllocator().buffer(capacity: Self.windowSize)
        }

        /// Compresses `input`, returning the compressed bytes that filled the window on the way
        /// (often none: zlib keeps what it has not yet written, and the window keeps what has
        /// not filled it).
        /// - Throws: `CompressNIOError` when zlib fails (it does not on valid state).
        func compress(_ input: Data) throws -> Data {
            guard !input.isEmpty else { return Data() }
            var input = ByteBuffer(bytes: input)
            var output = Data()
            while input.readableBytes > 0 {
                if window.writableBytes == 0 { drain(into: &output) }
                do {
                    try zlib.deflate(from: &input, to: &window, flush: .no)
                } catch let error as CompressNIOError where error == .bufferOverflow {
                    drain(into: &output)  // no room to make progress: hand the window on
                }
            }
            return output
        }

        /// Ends the stream: the compressed bytes still held, with gzip's trailer (CRC-32 and
        /// length).
        /// - Throws: `CompressNIOError` when zlib fails.
        func finish() throws -> Data {
            var output = Data()
            while true {
                if window.writableBytes == 0 { drain(into: &output) }
                do {
                    try zlib.deflate(from: &nothing, to: &window, flush: .finish)
                    break
                } catch let error as CompressNIOError where error == .bufferOverflow {
                    drain(into: &output)  // more to write than the window holds
                }
            }
            drain(into: &output)
            return output
        }

        private func drain(into output: inout Data) {
            output.append(contentsOf: window.readableBytesView)
            window.clear()
        }
    }

    /// A body's chunks, gzip-compressed as they are read: each reading starts a gzip stream of
    /// its own over a fresh reading of the base body, and tells `ended` how many bytes it read
    /// and wrote once it has written the trailer.
    struct GzipChunks: AsyncSequence, Sendable {
        typealias Element = Data

        let base: MessageBody
        let level: GzipLevel
        let ended: (@Sendable (_ read: Int64, _ written: Int64) -> Void)?

        func makeAsyncIterator() -> Iterator {
            Iterator(base: base.makeAsyncIterator(), level: level, ended: ended)
        }

        /// Reads the base body and compresses it: `next()` returns the next compressed bytes,
        /// reading on until zlib has some to give.
        struct Iterator: AsyncIteratorProtocol {
            var base: MessageBody.AsyncIterator
            let level: GzipLevel
            let ended: (@Sendable (_ read: Int64, _ written: Int64) -> Void)?
            var deflater: GzipDeflater?
            var finished = false
            var read: Int64 = 0
            var written: Int64 = 0

            init(
                base: MessageBody.AsyncIterator, level: GzipLevel,
                ended: (@Sendable (_ read: Int64, _ written: Int64) -> Void)?
            ) {
                self.base = base
                self.level = level
                self.ended = ended
            }

            mutating func next() async throws -> Data? {
                guard !finished else { return nil }
                let deflater = try self.deflater ?? GzipDeflater(level: level)
                self.deflater = deflater
                while true {
                    guard let chunk = try await base.next() else {
                        finished = true
                        let tail = try deflater.finish()
                        self.deflater = nil  // zlib's state goes now, not with the body
                        written += Int64(tail.count)
                        ended?(read, written)
                        return tail
                    }
                    read += Int64(chunk.count)
                    let compressed = try deflater.compress(chunk)
                    if !compressed.isEmpty {
                        written += Int64(compressed.count)
                        return compressed
                    }
                }
            }
        }
    }
#endif
