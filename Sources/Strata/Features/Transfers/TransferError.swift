import Foundation

/// Why a download failed after its response arrived, as the
/// ``StrataError/underlying`` error of a ``StrataError/Kind/transfer`` failure.
public enum TransferError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Reading or writing the partial file, or moving it into place, failed.
    case fileSystem(String)
    /// A `206` whose `Content-Range` does not start where the partial file ends (or is
    /// missing or malformed): its bytes would not continue the file. The partial file is
    /// removed, so the next attempt starts from zero.
    case unexpectedRange(expectedStart: Int64, contentRange: String?)
    /// The body ended at a length other than the one the response declared.
    case lengthMismatch(expected: Int64, received: Int64)

    /// One line naming what went wrong.
    public var description: String {
        switch self {
        case .fileSystem(let reason): "file system: \(reason)"
        case .unexpectedRange(let start, let range):
            "a 206 that does not continue at byte \(start): Content-Range \(range ?? "missing")"
        case .lengthMismatch(let expected, let received): "expected \(expected) bytes, received \(received)"
        }
    }
}

extension StrataError.Kind {
    /// A download could not be written, continued or completed (``TransferError``).
    public static let transfer = StrataError.Kind("transfer")
}
