import Foundation
import HTTPTypes

extension MockResponse {
    /// The bytes of the file at `url`, with a `Content-Type` guessed from its extension
    /// unless one is given.
    /// - Throws: ``MockTransportError/fixtureUnavailable(_:)`` when the file cannot be read.
    public static func fixture(
        at url: URL,
        status: HTTPResponse.Status = .ok,
        contentType: String? = nil
    ) throws -> MockResponse {
        let body: Data
        do {
            body = try Data(contentsOf: url)
        } catch {
            throw MockTransportError.fixtureUnavailable("\(url.path): \(error)")
        }
        return data(body, status: status, contentType: contentType ?? mediaType(forExtension: url.pathExtension))
    }

    /// The bytes of the resource `name` (`"user.json"`, extension included) in `bundle`,
    /// typically `Bundle.module` of a test target.
    /// - Throws: ``MockTransportError/fixtureUnavailable(_:)`` when there is no such
    ///   resource or it cannot be read.
    public static func fixture(
        named name: String,
        in bundle: Bundle,
        status: HTTPResponse.Status = .ok,
        contentType: String? = nil
    ) throws -> MockResponse {
        let file = name as NSString
        let ext = file.pathExtension
        let url = bundle.url(
            forResource: ext.isEmpty ? name : file.deletingPathExtension,
            withExtension: ext.isEmpty ? nil : ext)
        guard let url else {
            throw MockTransportError.fixtureUnavailable("no resource named \(name) in \(bundle.bundlePath)")
        }
        return try fixture(at: url, status: status, contentType: contentType)
    }

    /// The media type usually served for files with extension `ext`.
    static func mediaType(forExtension ext: String) -> String {
        switch ext.lowercased() {
        case "json": "application/json"
        case "txt": "text/plain; charset=utf-8"
        case "html", "htm": "text/html; charset=utf-8"
        case "xml": "application/xml"
        case "csv": "text/csv; charset=utf-8"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "pdf": "application/pdf"
        default: "application/octet-stream"
        }
    }
}
