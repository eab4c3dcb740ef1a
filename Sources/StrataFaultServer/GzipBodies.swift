import CompressNIO
import NIOCore

/// The gzip bodies the fault server sends, made with zlib (through CompressNIO) once per
/// process, on first use. Reading one throws what zlib threw while making it; a route
/// that gets an error closes its connection.
public enum GzipBodies {
    /// The text behind the gzip bodies: 400 numbered lines, 8 800 bytes.
    public static let text: String = (1...400).map { "line \(1000 + $0) of the text\n" }.joined()

    /// ``text`` compressed with gzip: a complete stream.
    public static var intact: ByteBuffer {
        get throws { try intactResult.get() }
    }

    /// The first half of ``intact``: the gzip stream cut short, without its last blocks
    /// and its trailer.
    public static var truncated: ByteBuffer {
        get throws {
            let intact = try intact
            return ByteBuffer(bytes: intact.readableBytesView.prefix(intact.readableBytes / 2))
        }
    }

    private static let intactResult = Result { () throws -> ByteBuffer in
        var input = ByteBuffer(string: text)
        return try input.compress(with: .gzip(configuration: .init(compressionLevel: .bestCompression)))
    }

    /// How many zero bytes ``bomb`` inflates to: 1 GiB.
    public static let bombInflatedSize = 1 << 30

    /// A gzip stream of about 1 MiB that inflates to ``bombInflatedSize`` zero bytes.
    public static var bomb: ByteBuffer {
        get throws { try bombResult.get() }
    }

    private static let bombResult = Result { try bomb(inflatedMiB: bombInflatedSize >> 20) }

    /// A valid gzip stream of `inflatedMiB` MiB of zero bytes, about 1 KiB per MiB.
    ///
    /// zlib compresses the first three MiB, each ended with a sync flush; from the second
    /// on, the compressor's state is the same at every MiB boundary, so every further MiB
    /// compresses to the same bytes and is copied instead of compressed. The stream ends
    /// with an empty final block and the trailer (CRC-32 and length of the zeros).
    /// - Throws: ``GzipBodiesError`` for fewer than 1 MiB or when zlib's output does not
    ///   repeat; zlib's own errors.
    public static func bomb(inflatedMiB: Int) throws -> ByteBuffer {
        guard inflatedMiB >= 1 else { throw GzipBodiesError.bombTooSmall }
        let mebibyte = ByteBuffer(repeating: 0, count: 1 << 20)
        let compressor = CompressionAlgorithm.gzip(configuration: .init(compressionLevel: .bestCompression)).compressor
        try compressor.startStream()
        func compressNext() throws -> ByteBuffer {
            var input = mebibyte
            var output = ByteBufferAllocator().buffer(capacity: compressor.maxSize(from: input))
            try compressor.streamDeflate(from: &input, to: &output, flush: .sync)
            return output
        }
        var stream = try compressNext()
        let repeating = try compressNext()
        let check = try compressNext()
        try compressor.finishStream()
        guard check == repeating else { throw GzipBodiesError.outputDoesNotRepeat }
        for _ in 1..<inflatedMiB { stream.writeImmutableBuffer(repeating) }
        // An empty final stored block: BFINAL=1, BTYPE=00, then LEN=0 and NLEN=0xFFFF.
        stream.writeBytes([0x01, 0x00, 0x00, 0xFF, 0xFF])
        let size = inflatedMiB << 20
        stream.writeInteger(CRC32.ofZeros(count: size), endianness: .little)
        stream.writeInteger(UInt32(truncatingIfNeeded: size), endianness: .little)
        return stream
    }
}

/// Why a gzip body of the fault server could not be made.
public enum GzipBodiesError: Error, Equatable {
    /// A bomb must inflate to at least one MiB.
    case bombTooSmall
    /// zlib's output for a MiB of zeros did not repeat, so the bomb cannot be built by copying.
    case outputDoesNotRepeat
}
