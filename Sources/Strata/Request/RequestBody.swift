import Foundation

/// A body given to a request as it is, rather than built from parameters.
public enum RequestBody: Sendable {
    /// These bytes, sent with this `Content-Type` (when not `nil`).
    case data(Data, contentType: String?)
    /// A `multipart/form-data` body, streamed part by part so files are never read whole.
    case multipart(MultipartFormData)
}
