import Foundation

/// A multipart form could not be built or encoded.
public enum MultipartError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The boundary is not valid per RFC 2046: it must be 1–70 characters from the
    /// `bchars` set (letters, digits, `'()+_,-./:=?` and space) and must not end in a space.
    case invalidBoundary(String)
    /// No file exists at the URL.
    case fileNotFound(URL)
    /// Something exists at the URL, but it is not a regular file (a directory, a device, a pipe…).
    case notARegularFile(URL)
    /// The file's size differs from the size it had when it was appended, so the body
    /// would no longer match the announced `Content-Length`.
    case fileChanged(URL, expected: Int64, actual: Int64)
    /// The file could not be opened or read; `reason` describes the underlying error.
    case readFailed(URL, reason: String)

    /// A one-line description for logs.
    public var description: String {
        switch self {
        case .invalidBoundary(let boundary):
            let problem = MultipartBoundary.problem(with: boundary) ?? "it is not accepted"
            return "invalid multipart boundary \"\(boundary)\": \(problem)"
        case .fileNotFound(let url):
            return "multipart file not found: \(url.path)"
        case .notARegularFile(let url):
            return "multipart file is not a regular file: \(url.path)"
        case .fileChanged(let url, let expected, let actual):
            return "multipart file changed since it was appended: \(url.path) "
                + "had \(expected) bytes, now has \(actual)"
        case .readFailed(let url, let reason):
            return "cannot read multipart file \(url.path): \(reason)"
        }
    }
}
