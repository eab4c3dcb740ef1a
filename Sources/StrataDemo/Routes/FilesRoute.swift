/// The file service: downloads with ranges, and where uploads go.
public enum FilesRoute: DemoPath {
    /// `GET /files/:name`.
    case file(String)
    /// `GET /upload-host`.
    case uploadHost

    /// The path of the route.
    public var path: String {
        switch self {
        case .file(let name): "/files/\(name)"
        case .uploadHost: "/upload-host"
        }
    }
}
