import Foundation

/// Inspects files for multipart parts without reading their contents.
enum MultipartFileInfo {
    /// The size of the regular file at `url`, following symbolic links.
    ///
    /// - Throws: ``MultipartError/fileNotFound(_:)`` when nothing is there (or a link
    ///   dangles), ``MultipartError/notARegularFile(_:)`` for directories, pipes, devices…,
    ///   and ``MultipartError/readFailed(_:reason:)`` when the file cannot be inspected.
    static func size(ofRegularFileAt url: URL) throws -> Int64 {
        guard url.isFileURL else {
            throw MultipartError.readFailed(url, reason: "not a file URL")
        }
        let fileManager = FileManager.default
        // `fileExists` follows symbolic links; `attributesOfItem` does not, so it is
        // asked about the resolved path.
        guard fileManager.fileExists(atPath: url.path) else {
            throw MultipartError.fileNotFound(url)
        }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try fileManager.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)
        } catch {
            throw MultipartError.readFailed(url, reason: String(describing: error))
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw MultipartError.notARegularFile(url)
        }
        guard let size = (attributes[.size] as? NSNumber)?.int64Value, size >= 0 else {
            throw MultipartError.readFailed(url, reason: "the file's size is unknown")
        }
        return size
    }
}
