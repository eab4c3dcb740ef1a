/// The file service: downloads with ranges.
public enum FilesRoute: DemoPath {
    /// `GET /files/:name`.
    case file(String)

    /// The path of the route.
    public var path: String {
        switch self {
        case .file(let name): "/files/\(name)"
        }
    }
}
