import CompressNIO
import NIOCore

/// The gzip bodies the fault server sends, made with zlib (through CompressNIO) once per
/// process, on first use.
public enum GzipBodies {
    /// The text behind the gzip bodies: 400 numbered lines, 8 800 bytes.
    public static let text: String = (1...400).map { "line \(1000 + $0) of the text\n" }.joined()

    /// ``text`` compressed with gzip: a complete stream.
    public static let intact: ByteBuffer = {
        var input = ByteBuffer(string: text)
        // Compressing an in-memory buffer into a buffer of zlib's bound cannot fail.
        return try! input.compress(with: .gzip(configuration: .init(compressionLevel: .bestCompression)))
    }()

    /// The first half of ``intact``: the gzip stream cut short, without its last blocks
    /// and its trailer.
    public static let truncated = ByteBuffer(bytes: intact.readableBytesView.prefix(intact.readableBytes / 2))

    /// How many zero bytes ``bomb`` inflates to: 1 GiB.
    public static let bombInflatedSize = 1 << 30

    /// A gzip stream of about 1 MiB that inflates to ``bombInflatedSize`` zero bytes.
    public static let bomb: ByteBuffer = bomb(inflatedMiB: bombInflatedSize >> 20)

    /// A valid gzip stream of `inflatedMiB` MiB of zero bytes, about 1 KiB per MiB.
    ///
    /// zlib compresses the first three MiB, each ended with a sync flush; from the second
    /// on, the compressor's state is the same at every MiB boundary, so every further MiB
    /// compresses to the same bytes and is copied instead of compressed. The stream ends
    /// with an empty final block and the trailer (CRC-32 and length of the zeros).
    public static func bomb(inflatedMiB: Int) -> ByteBuffer {
        precondition(inflatedMiB >= 1, "the bomb inflates to at least one MiB")
        let mebibyte = ByteBuffer(repeating: 0, count: 1 << 20)
        let compressor = CompressionAlgorithm.gzip(configuration: .init(compressionLevel: .bestCompression)).compressor
        // In-memory compression into buffers of zlib's bound cannot fail.
        try! compressor.startStream()
        func compressNext() -> ByteBuffer {
            var input = mebibyte
            var output = ByteBufferAllocator().buffer(capacity: compressor.maxSize(from: input))
            try! compressor.streamDeflate(from: &input, to: &output, flush: .sync)
            return output
        }
        var stream = compressNext()
        let repeating = compressNext()
        let check = compressNext()
        try! compressor.finishStream()
        precondition(check == repeating, "zlib's output per MiB of zeros is expected to repeat")
        for _ in 1..<inflatedMiB { stream.writeImmutableBuffer(repeating) }
        // An empty final stored block: BFINAL=1, BTYPE=00, then LEN=0 and NLEN=0xFFFF.
        stream.writeBytes([0x01, 0x00, 0x00, 0xFF, 0xFF])
        let size = inflatedMiB << 20
        stream.writeInteger(CRC32.ofZeros(count: size), endianness: .little)
        stream.writeInteger(UInt32(truncatingIfNeeded: size), endianness: .little)
        return stream
    }
}
