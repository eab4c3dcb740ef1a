#if Compression
    import Foundation
    import Strata

    /// How hard zlib works on a gzip stream: from ``GzipLevel/fastest`` (level 1) to ``GzipLevel/best``
    /// (level 9); ``GzipLevel/default`` is zlib's own (level 6).
    public struct GzipLevel: Sendable, Hashable, CustomStringConvertible {
        /// The zlib level, 1 to 9.
        public let value: Int

        /// A level from 1 (fastest) to 9 (smallest output); a value outside is clamped into
        /// that range.
        public init(_ value: Int) {
            self.value = min(max(value, 1), 9)
        }

        /// Level 1: the least CPU per byte, the largest output of the levels.
        public static let fastest = GzipLevel(1)
        /// Level 6, zlib's default: most of the best level's saving for a fraction of its CPU.
        public static let `default` = GzipLevel(6)
        /// Level 9: the smallest output, the most CPU per byte.
        public static let best = GzipLevel(9)

        /// `gzip level 6`
        public var description: String { "gzip level \(value)" }
    }

    extension MessageBody {
        /// This body, gzip-compressed (RFC 1952) chunk by chunk as it is read: memory stays
        /// bounded (zlib's state, a 64 KiB window and the chunk in hand) whatever the body's
        /// length. The length of the result is unknown (`nil`) until it has been read; it is
        /// replayable when this body is (each reading compresses a fresh reading of this one).
        ///
        /// ```swift
        /// let compressed = MessageBody(Data(repeating: 0x41, count: 1 << 20)).gzipCompressed()
        /// let bytes = try await compressed.collect(upTo: 1 << 20)  // about 1 KiB
        /// ```
        ///
        /// A reading throws what reading this body throws, or zlib's own error (`CompressNIOError`)
        /// when it cannot allocate its state.
        public func gzipCompressed(level: GzipLevel = .default) -> MessageBody {
            gzipCompressed(level: level, ended: nil)
        }

        /// ``gzipCompressed(level:)``, telling `ended` how many bytes each complete reading
        /// read and wrote.
        func gzipCompressed(
            level: GzipLevel, ended: (@Sendable (_ read: Int64, _ written: Int64) -> Void)?
        ) -> MessageBody {
            let chunks = GzipChunks(base: self, level: level, ended: ended)
            return isReplayable ? MessageBody(length: nil) { chunks } : MessageBody(length: nil, streaming: chunks)
        }
    }
#endif
