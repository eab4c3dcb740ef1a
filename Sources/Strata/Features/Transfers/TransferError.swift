import Foundation

/// Why a download or a resumable upload failed, as the ``StrataError/underlying`` error of
/// a ``StrataError/Kind/transfer`` failure.
public enum TransferError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Reading or writing the partial file, or moving it into place, failed.
    case fileSystem(String)
    /// A `206` whose `Content-Range` does not start where the partial file ends (or is
    /// missing or malformed): its bytes would not continue the file. The partial file is
    /// removed, so the next attempt starts from zero.
    case unexpectedRange(expectedStart: Int64, contentRange: String?)
    /// The body ended at a length other than the one the response declared.
    case lengthMismatch(expected: Int64, received: Int64)
    /// A resumable upload's server holds more bytes (`Upload-Offset`) than were sent to
    /// it, or than the file has: what it holds is not this file's beginning.
    case offsetBeyondSent(offset: Int64, sent: Int64)
    /// The upload resource is gone (`404`, `410`): the server deleted it, or it expired.
    case uploadGone(status: Int)
    /// The server refused an upload of this length (`413`); `limit` is the most it takes
    /// (`Upload-Limit`'s `max-size`), when it said.
    case lengthRefused(length: Int64, limit: Int64?)
    /// The file changed while it was being uploaded: the server's bytes are of another
    /// version. The upload is deleted; a new call starts a new one.
    case fileChanged

    /// One line naming what went wrong.
    public var description: String {
        switch self {
        case .fileSystem(let reason): "file system: \(reason)"
        case .unexpectedRange(let start, let range):
            "a 206 that does not continue at byte \(start): Content-Range \(range ?? "missing")"
        case .lengthMismatch(let expected, let received): "expected \(expected) bytes, received \(received)"
        case .offsetBeyondSent(let offset, let sent): "the server holds \(offset) bytes, but \(sent) were sent"
        case .uploadGone(let status): "the upload resource is gone (\(status))"
        case .lengthRefused(let length, let limit):
            "the server refused an upload of \(length) bytes" + (limit.map { " (at most \($0))" } ?? "")
        case .fileChanged: "the file changed while it was being uploaded"
        }
    }
}

extension StrataError.Kind {
    /// A download could not be written, continued or completed, or a resumable upload could
    /// not be continued (``TransferError``).
    public static let transfer = StrataError.Kind("transfer")
}
