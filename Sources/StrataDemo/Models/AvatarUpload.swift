/// What the server made of an uploaded avatar: `{"field", "filename", "bytes", "contentType"}`.
public struct AvatarUpload: Decodable, Sendable, Equatable {
    /// The form field of the file part.
    public let field: String
    /// The file name sent with it.
    public let filename: String?
    /// How many bytes the part held.
    public let bytes: Int
    /// The part's content type.
    public let contentType: String?
}
