import Foundation

/// A body given to a request as it is, rather than built from parameters.
public enum RequestBody: Sendable {
    /// These bytes, sent with this `Content-Type` (when not `nil`).
    case data(Data, contentType: String?)
    /// A `multipart/form-data` body, streamed part by part so files are never read whole.
    case multipart(MultipartFormData)
    /// The bytes of the file at this URL, streamed from disk (never read whole) with a
    /// `Content-Length` of its size, and this `Content-Type` (when `nil`, the type its
    /// name suggests, else `application/octet-stream`). The file is opened anew on each
    /// send, so retries and `307`/`308` redirects send it again; a file that is not a
    /// regular file, or whose size changes while it is sent, fails with ``MultipartError``.
    case file(URL, contentType: String? = nil)
    /// A body of your own, for example chunks from an `AsyncSequence`
    /// (`MessageBody(length:streaming:)`), sent as it is with this `Content-Type`. A
    /// one-shot body is sent once: a retry or redirect that needs it again fails
    /// (``RedirectError`` for a redirect; a retry is not made).
    case stream(MessageBody, contentType: String?)
}

extension RequestBody {
    /// The bytes to send and their `Content-Type`.
    /// - Throws: ``MultipartError`` when a file is not a regular file.
    package func encoded() throws -> (MessageBody, contentType: String?) {
        switch self {
        case .data(let data, let type):
            return (MessageBody(data), type)
        case .multipart(let form):
            return (MessageBody(length: form.contentLength) { form.makeChunks() }, form.contentType)
        case .file(let file, let type):
            let size = try MultipartFileInfo.size(ofRegularFileAt: file)
            let body = MessageBody(length: size) {
                MultipartFormData.Chunks(segments: [.file(file, size: size)], chunkSize: 64 * 1024)
            }.sent(from: file)
            return (
                body,
                type ?? MultipartMediaTypes.type(forFileName: file.lastPathComponent) ?? MultipartMediaTypes.fallback
            )
        case .stream(let body, let type):
            return (body, type)
        }
    }
}
