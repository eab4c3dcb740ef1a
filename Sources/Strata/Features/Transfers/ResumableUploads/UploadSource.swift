import Foundation

/// What a resumable upload sends: a file, read in chunks as it goes, or bytes in memory.
enum UploadSource: Sendable {
    case file(URL)
    case bytes(Data)

    /// How many bytes one read hands to the transport.
    static let chunkSize = 64 * 1024

    /// What tells this version of the source from another.
    /// - Throws: when a file is not a regular file that reads.
    func identity() throws -> SourceIdentity {
        switch self {
        case .file(let url): try SourceIdentity(of: url)
        case .bytes(let data): SourceIdentity(size: Int64(data.count), modified: 0, hash: FNV1a.hash(data))
        }
    }

    /// What names the source in its state file: a file's path, or the bytes' `identity`
    /// (the same bytes given again after a restart continue their upload).
    func key(_ identity: SourceIdentity?) -> String {
        switch self {
        case .file(let url): url.standardizedFileURL.path
        case .bytes: "bytes \(identity?.size ?? 0) \(String(identity?.hash ?? 0, radix: 16))"
        }
    }

    /// Whether the source is still the version `identity` names (bytes in memory always are).
    func isUnchanged(since identity: SourceIdentity) -> Bool {
        guard case .file(let url) = self else { return true }
        return (try? SourceIdentity(of: url)) == identity
    }

    /// The bytes from `offset` to the end, in chunks of ``chunkSize``; `read` is told the
    /// size of each chunk as it is handed over.
    func chunks(from offset: Int64, read: @escaping @Sendable (Int) -> Void) -> Chunks {
        Chunks(source: self, offset: offset, read: read)
    }

    /// The bytes of a source from an offset to its end: memory stays at one chunk
    /// whatever a file's size.
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = Data

        let source: UploadSource
        let offset: Int64
        let read: @Sendable (Int) -> Void

        struct AsyncIterator: AsyncIteratorProtocol {
            /// Where the chunks come from, or why a file did not open (thrown by the first
            /// read); `nil` at the end.
            var reader: Result<Reader, any Error>?
            let read: @Sendable (Int) -> Void

            enum Reader {
                case file(FileHandle)
                case bytes(Data, next: Int)
            }

            mutating func next() async throws -> Data? {
                let chunk: Data
                switch try reader?.get() {
                case nil: return nil
                case .file(let handle):
                    chunk = try handle.read(upToCount: UploadSource.chunkSize) ?? Data()
                    if chunk.isEmpty { try? handle.close() }
                case .bytes(let data, let next):
                    let end = Swift.min(next + UploadSource.chunkSize, data.endIndex)
                    chunk = next < end ? Data(data[next..<end]) : Data()
                    reader = .success(.bytes(data, next: end))
                }
                guard !chunk.isEmpty else {
                    reader = nil
                    return nil
                }
                read(chunk.count)
                return chunk
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            let reader = Result { () throws -> AsyncIterator.Reader in
                switch source {
                case .file(let url):
                    let handle = try FileHandle(forReadingFrom: url)
                    try handle.seek(toOffset: UInt64(offset))
                    return .file(handle)
                case .bytes(let data):
                    return .bytes(data, next: data.startIndex + Int(Swift.min(offset, Int64(data.count))))
                }
            }
            return AsyncIterator(reader: reader, read: read)
        }
    }
}

/// What tells one version of an upload's source from another: its size, and for a file
/// its modification date and a hash of its first 64 KiB, for bytes a hash of them all.
/// An upload continues only the version it started with.
struct SourceIdentity: Codable, Equatable {
    var size: Int64
    /// Seconds since 1970, as the file system keeps them (`0` for bytes).
    var modified: Double
    /// FNV-1a (64 bits) of a file's first 64 KiB, or of all the bytes.
    var hash: UInt64

    init(size: Int64, modified: Double, hash: UInt64) {
        self.size = size
        self.modified = modified
        self.hash = hash
    }

    /// The identity of the regular file at `url`.
    /// - Throws: when it is not a regular file that reads.
    init(of url: URL) throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw CocoaError(.fileReadUnsupportedScheme, userInfo: [NSFilePathErrorKey: url.path])
        }
        size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        hash = FNV1a.hash(try handle.read(upToCount: 64 << 10) ?? Data())
    }
}

/// The 64-bit FNV-1a hash: a fingerprint, not a defence against a forger.
enum FNV1a {
    static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    /// The hash of `data`, read through its buffer (a sequence of `Data`'s bytes is slow
    /// to walk when it is large).
    static func hash(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { hash($0) }
    }
}
