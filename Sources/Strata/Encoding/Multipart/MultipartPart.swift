import Foundation

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
