import CompressNIO
import Crypto
import Foundation
import NIOCore

/// gzip inflated chunk by chunk, as a server reads a compressed request body: the test
/// server's reading of what `RequestCompressionMiddleware` sent, with CompressNIO's inflater
/// (not the code under test), hashed with SHA-256 as it goes.
struct GzipInflater {
    private let zlib: ZlibDecompressor
    private var window = ByteBufferAllocator().buffer(capacity: 64 * 1024)
    /// The inflated bytes so far.
    private(set) var count = 0
    private var hash = SHA256()
    init() throws {
        self.zlib = try ZlibDecompressor(algorithm: .gzip)
    }

    /// Inflates `chunk`.
    mutating func inflate(_ chunk: ByteBuffer) throws {
        var chunk = chunk
        while chunk.readableBytes > 0 {
            do {
                try zlib.inflate(from: &chunk, to: &window)
                take()
                if chunk.readableBytes > 0 { throw CompressNIOError.corruptData }  // bytes after the stream's end
            } catch let error as CompressNIOError where error == .bufferOverflow {
                take()  // the window filled: inflate the rest of the chunk
            }
        }
    }

    /// Takes what zlib still holds once the input has ended; the SHA-256 in hex.
    mutating func finish() throws -> String {
        var nothing = ByteBufferAllocator().buffer(capacity: 1)
        while true {
            do {
                try zlib.inflate(from: &nothing, to: &window)
                take()
                break
            } catch let error as CompressNIOError where error == .bufferOverflow {
                take()
            } catch let error as CompressNIOError where error == .inputBufferOverflow {
                take()
                break
            }
        }
        return Self.hex(hash.finalize())
    }

    private mutating func take() {
        count += window.readableBytes
        window.withUnsafeReadableBytes { hash.update(bufferPointer: $0) }
        window.clear()
    }

    /// The hex of a digest.
    static func hex(_ digest: some Sequence<UInt8>) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
