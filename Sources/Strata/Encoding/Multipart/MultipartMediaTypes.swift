/// The small built-in table that picks a part's `Content-Type` from a file extension.
enum MultipartMediaTypes {
    /// The type used when nothing better is known.
    static let fallback = "application/octet-stream"

    private static let byExtension: [String: String] = [
        "json": "application/json",
        "txt": "text/plain",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "pdf": "application/pdf",
        "html": "text/html",
        "csv": "text/csv",
        "xml": "application/xml",
        "zip": "application/zip",
        "mp4": "video/mp4",
        "mp3": "audio/mpeg",
        "webp": "image/webp",
    ]

    /// The media type for a file name's extension (case-insensitive), or `nil` if the
    /// name has no extension or the extension is not in the table.
    static func type(forFileName fileName: String) -> String? {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
        let pathExtension = fileName[fileName.index(after: dot)...].lowercased()
        return byExtension[pathExtension]
    }
}
