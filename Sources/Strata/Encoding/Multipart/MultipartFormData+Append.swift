import Foundation

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
        let type = contentType ?? fileName.map { MultipartMediaTypes.type(forFileName: $0) ?? MultipartMediaTypes.fallback }
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
    public mutating func append(fileAt url: URL, name: String, fileName: String? = nil, contentType: String? = nil) throws {
        let size = try MultipartFileInfo.size(ofRegularFileAt: url)
        let sentName = fileName ?? url.lastPathComponent
        let type = contentType
            ?? MultipartMediaTypes.type(forFileName: sentName)
            ?? MultipartMediaTypes.type(forFileName: url.lastPathComponent)
            ?? MultipartMediaTypes.fallback
        parts.append(MultipartPart(name: name, fileName: sentName, contentType: type, body: .file(url, size: size)))
    }
}
