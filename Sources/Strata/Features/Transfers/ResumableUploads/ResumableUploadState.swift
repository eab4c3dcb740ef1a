import Foundation

/// What a resumable upload keeps in its state folder, so that a later call — after the
/// process was killed — continues it: the upload resource the server created and the
/// identity of the file it was created for.
struct ResumableUploadState: Codable, Equatable {
    /// The upload resource (the creation's `Location`).
    var resource: URL
    /// The version of the source the resource holds bytes of.
    var source: SourceIdentity

    /// The state file of the upload of the source named `source` with `request` (method
    /// and URL) in `folder`: one per request and source, named by a hash of both.
    static func stateFile(in folder: URL, method: String, url: String, source: String) -> URL {
        let key = "\(method) \(url)\n\(source)"
        return folder.appendingPathComponent("upload-\(String(FNV1a.hash(key.utf8), radix: 16)).json")
    }

    /// The state saved at `file`, when there is one that reads.
    static func load(from file: URL) -> ResumableUploadState? {
        (try? Data(contentsOf: file)).flatMap { try? JSONDecoder().decode(ResumableUploadState.self, from: $0) }
    }

    /// Saves the state to `file`, atomically, creating its folder.
    func save(to file: URL) throws {
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONEncoder().encode(self).write(to: file, options: .atomic)
    }
}
