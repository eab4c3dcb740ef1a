import Foundation

/// What a download keeps next to its partial file (`<destination>.strata-partial.json`),
/// so that it can resume after the process restarts: the URL it came from, the validator
/// that `If-Range` sends back, and the total the server declared.
struct DownloadState: Codable, Equatable {
    var url: String
    /// The strong `ETag`, or else the `Last-Modified` date, of the response being saved.
    var validator: String
    var total: Int64?

    /// The partial file of `destination`.
    static func partialFile(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(
            destination.lastPathComponent + ".strata-partial")
    }

    /// The state file of `destination`.
    static func stateFile(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(
            destination.lastPathComponent + ".strata-partial.json")
    }

    /// The validator to resume with: a strong `ETag`, else `Last-Modified`; `nil` when the
    /// response has neither (it cannot be resumed safely).
    static func validator(of fields: HTTPFields) -> String? {
        if let etag = fields[.eTag], !etag.hasPrefix("W/") { return etag }
        return fields[.lastModified]
    }
}

extension DownloadState {
    /// The state saved at `file`, when there is one that reads.
    static func load(from file: URL) -> DownloadState? {
        (try? Data(contentsOf: file)).flatMap { try? JSONDecoder().decode(DownloadState.self, from: $0) }
    }

    /// Saves the state to `file`, atomically.
    func save(to file: URL) throws {
        try JSONEncoder().encode(self).write(to: file, options: .atomic)
    }
}
