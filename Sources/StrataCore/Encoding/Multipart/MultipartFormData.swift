import Foundation

/// A `multipart/form-data` request body (RFC 7578), built up part by part.
///
/// Text fields and in-memory data are kept as they are; files are only referenced and
/// read when the body is encoded, so large uploads can be streamed with ``makeChunks(chunkSize:)``
/// without ever being fully in memory.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Ann", name: "user")
/// try form.append(fileAt: photoURL, name: "photo")        // image/jpeg from the extension
/// request.headerFields[.contentType] = form.contentType
/// for try await chunk in form.makeChunks() { upload(chunk) }
/// ```
///
/// The value is `Sendable`; copies are independent, and encoding never mutates it.
public struct MultipartFormData: Sendable {
    /// The boundary that separates parts; always valid per ``isValidBoundary(_:)``.
    public let boundary: String

    /// The parts in the order they were appended.
    var parts: [MultipartPart] = []

    /// Creates an empty form with a fresh random boundary (see ``randomBoundary()``).
    public init() {
        self.boundary = MultipartBoundary.random()
    }

    /// Creates an empty form with a given boundary.
    ///
    /// Use a fixed boundary for reproducible output, for example in tests.
    /// - Throws: ``MultipartError/invalidBoundary(_:)`` unless ``isValidBoundary(_:)``
    ///   accepts `boundary`.
    public init(boundary: String) throws {
        guard Self.isValidBoundary(boundary) else { throw MultipartError.invalidBoundary(boundary) }
        self.boundary = boundary
    }

    /// Whether `boundary` is a valid RFC 2046 boundary: 1–70 characters from the `bchars`
    /// set (ASCII letters, digits, `'()+_,-./:=?` and space), not ending in a space.
    public static func isValidBoundary(_ boundary: String) -> Bool {
        MultipartBoundary.problem(with: boundary) == nil
    }

    /// A fresh random boundary: `strata.boundary.` followed by 16 hexadecimal digits.
    public static func randomBoundary() -> String {
        MultipartBoundary.random()
    }

    /// The `Content-Type` header value for this body:
    /// `multipart/form-data; boundary=<boundary>`, with the boundary quoted when it
    /// contains characters that are not allowed in a MIME token (such as `:` or space).
    public var contentType: String {
        let parameter = MultipartBoundary.needsQuoting(boundary) ? "\"\(boundary)\"" : boundary
        return "multipart/form-data; boundary=" + parameter
    }

    /// Whether the form has no parts.
    public var isEmpty: Bool { parts.isEmpty }
}

extension MultipartFormData {
    /// Appends a part whose body is `data`.
    ///
    /// - Parameters:
    ///   - data: The part's body.
    ///   - name: The form field name.
    ///   - fileName: When given, the part is sent as a file with this `filename`.
    ///   - contentType: The part's `Content-Type`. When `nil`, file parts get a type from
    ///     `fileName`'s extension (or `application/octet-stream`); other parts get none.
    ///     Line breaks in it are removed.
    public mutating func append(_ data: Data, name: String, fileName: String? = nil, contentType: String? = nil) {
        let type =
            contentType ?? fileName.map { MultipartMediaTypes.type(forFileName: $0) ?? MultipartMediaTypes.fallback }
        parts.append(MultipartPart(name: name, fileName: fileName, contentType: type, body: .data(Data(data))))
    }

    /// Appends a text field, encoded as UTF-8.
    ///
    /// - Parameters:
    ///   - string: The field's value, written as is (line breaks are not normalized).
    ///   - name: The form field name.
    ///   - contentType: The part's `Content-Type`; when `nil` the part has no
    ///     `Content-Type` header, which means `text/plain` to servers.
    public mutating func append(_ string: String, name: String, contentType: String? = nil) {
        parts.append(MultipartPart(name: name, fileName: nil, contentType: contentType, body: .data(Data(string.utf8))))
    }

    /// Appends a file part without reading the file: it is only inspected for its size,
    /// and read when the body is encoded or streamed.
    ///
    /// Symbolic links are followed. If the file's size differs when it is read later,
    /// encoding fails with ``MultipartError/fileChanged(_:expected:actual:)``.
    ///
    /// - Parameters:
    ///   - url: A `file:` URL of a regular file.
    ///   - name: The form field name.
    ///   - fileName: The `filename` sent to the server; defaults to the URL's last path component.
    ///   - contentType: The part's `Content-Type`; when `nil` it comes from the extension of
    ///     the file name (or else of the URL), falling back to `application/octet-stream`.
    /// - Throws: ``MultipartError/fileNotFound(_:)``, ``MultipartError/notARegularFile(_:)``
    ///   or ``MultipartError/readFailed(_:reason:)`` when the file cannot be inspected.
    public mutating func append(fileAt url: URL, name: String, fileName: String? = nil, contentType: String? = nil)
        throws
    {
        let size = try MultipartFileInfo.size(ofRegularFileAt: url)
        let sentName = fileName ?? url.lastPathComponent
        let type =
            contentType
            ?? MultipartMediaTypes.type(forFileName: sentName)
            ?? MultipartMediaTypes.type(forFileName: url.lastPathComponent)
            ?? MultipartMediaTypes.fallback
        parts.append(MultipartPart(name: name, fileName: sentName, contentType: type, body: .file(url, size: size)))
    }
}

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

/// One part of a multipart form: its rendered headers and where its body comes from.
struct MultipartPart: Sendable {
    /// Where a part's body bytes come from.
    enum Body: Sendable {
        /// Bytes held in memory.
        case data(Data)
        /// A file read when the form is encoded; `size` is its size when it was appended.
        case file(URL, size: Int64)
    }

    /// The part's header lines, each ending in CRLF, without the delimiter line and
    /// without the blank line that separates headers from the body.
    let headers: String
    /// The part's body.
    let body: Body

    /// Creates a part, rendering `Content-Disposition` and, when given, `Content-Type`.
    init(name: String, fileName: String?, contentType: String?, body: Body) {
        var headers = "Content-Disposition: form-data; name=" + MultipartHeaderEscaping.quotedParameter(name)
        if let fileName {
            headers += "; filename=" + MultipartHeaderEscaping.quotedParameter(fileName)
        }
        headers += "\r\n"
        if let contentType {
            headers += "Content-Type: " + MultipartHeaderEscaping.singleLine(contentType) + "\r\n"
        }
        self.headers = headers
        self.body = body
    }
}

/// Inspects files for multipart parts without reading their contents.
package enum MultipartFileInfo {
    /// The size of the regular file at `url`, following symbolic links.
    ///
    /// - Throws: ``MultipartError/fileNotFound(_:)`` when nothing is there (or a link
    ///   dangles), ``MultipartError/notARegularFile(_:)`` for directories, pipes, devices…,
    ///   and ``MultipartError/readFailed(_:reason:)`` when the file cannot be inspected.
    package static func size(ofRegularFileAt url: URL) throws -> Int64 {
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
