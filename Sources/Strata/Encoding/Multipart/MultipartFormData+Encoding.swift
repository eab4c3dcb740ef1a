import Foundation

extension MultipartFormData {
    /// The whole encoded body in memory, reading every file part.
    ///
    /// Prefer ``makeChunks(chunkSize:)`` for large files.
    /// - Throws: ``MultipartError`` when a file is gone, is no longer a regular file,
    ///   has changed size since it was appended, or cannot be read.
    public func encodedData() throws -> Data {
        var body = Data()
        if let length = contentLength.flatMap({ Int(exactly: $0) }) {
            body.reserveCapacity(length)
        }
        var reader = MultipartBodyReader(segments: segments)
        while !reader.isFinished {
            try reader.read(maxBytes: Int.max, appendingTo: &body)
        }
        return body
    }

    /// The encoded body as an asynchronous sequence of chunks, reading files incrementally
    /// so that large files are never fully in memory.
    ///
    /// The chunks concatenate to exactly ``encodedData()``. Each chunk holds `chunkSize`
    /// bytes except the last (a `chunkSize` below 1 counts as 1). The sequence can be
    /// iterated any number of times; every iteration reads the body afresh.
    ///
    /// Iteration throws ``MultipartError`` when a file is gone or has changed size since it
    /// was appended, and `CancellationError` when the task is cancelled. File reads are
    /// blocking calls made on the iterating task.
    public func makeChunks(chunkSize: Int = 64 * 1024) -> Chunks {
        Chunks(segments: segments, chunkSize: max(1, chunkSize))
    }
}
