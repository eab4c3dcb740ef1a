import Foundation

/// The bytes of a file from an offset to its end, read in chunks of `chunkSize` as a
/// request body: memory stays at one chunk whatever the file's size. `read` is told the
/// size of each chunk as it is handed over.
struct FileSlice: AsyncSequence, Sendable {
    typealias Element = Data

    let file: URL
    let offset: Int64
    let chunkSize: Int
    let read: @Sendable (Int) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        /// The open file, or why it did not open (thrown by the first read).
        var handle: Result<FileHandle, any Error>?
        let chunkSize: Int
        let read: @Sendable (Int) -> Void

        mutating func next() async throws -> Data? {
            guard let opened = handle else { return nil }
            let handle = try opened.get()
            let chunk = try handle.read(upToCount: chunkSize) ?? Data()
            guard !chunk.isEmpty else {
                try? handle.close()
                self.handle = nil
                return nil
            }
            read(chunk.count)
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        let handle = Result { () throws -> FileHandle in
            let handle = try FileHandle(forReadingFrom: file)
            try handle.seek(toOffset: UInt64(offset))
            return handle
        }
        return AsyncIterator(handle: handle, chunkSize: chunkSize, read: read)
    }
}
