import Foundation

/// What a resumable upload keeps in its state folder, so that a later call — after the
/// process was killed — continues it: the upload resource the server created and the
/// identity of the file it was created for.
struct ResumableUploadState: Codable, Equatable {
    /// The upload resource (the creation's `Location`).
    var resource: URL
    /// The file the resource holds bytes of.
    var file: FileIdentity

    /// The state file of the upload of `file` with `request` (method and URL) in `folder`:
    /// one per request and file, named by a hash of both.
    static func stateFile(in folder: URL, method: String, url: String, file: URL) -> URL {
        let key = "\(method) \(url)\n\(file.standardizedFileURL.path)"
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

/// What tells one version of a file from another: its size, its modification date and a
/// hash of its first 64 KiB. An upload continues only the version it started with.
struct FileIdentity: Codable, Equatable {
    var size: Int64
    /// Seconds since 1970, as the file system keeps them.
    var modified: Double
    /// FNV-1a (64 bits) of the first 64 KiB.
    var headHash: UInt64

    /// The identity of the regular file at `url`.
    /// - Throws: when it is not a regular file that reads.
    init(of url: URL) throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw CocoaError(.fileReadUnsupportedScheme, userInfo: [NSFilePathErrorKey: url.path])
        }
        size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        headHash = FNV1a.hash(try handle.read(upToCount: 64 << 10) ?? Data())
    }
}

/// The 64-bit FNV-1a hash: a fingerprint, not a defence against a forger.
enum FNV1a {
    static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
