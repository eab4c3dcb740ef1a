import Foundation

/// Where the demo's resumable uploads go: `GET /upload-host` → `{"origin"}`.
public struct UploadHost: Decodable, Sendable, Equatable {
    /// The upload host, such as `http://127.0.0.1:54322`.
    public let origin: URL
}

/// What the upload host stored of a finished upload: `{"path", "size", "sha256"}`.
public struct StoredUpload: Decodable, Sendable, Equatable {
    /// The path the upload was created at.
    public let path: String
    /// The bytes stored.
    public let size: Int
    /// Their SHA-256, in lowercase hexadecimal.
    public let sha256: String
}
