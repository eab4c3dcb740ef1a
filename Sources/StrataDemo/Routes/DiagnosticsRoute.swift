/// Endpoints that show what the server saw or fail on purpose.
public enum DiagnosticsRoute: DemoPath {
    /// `GET /headers`: the request's header fields.
    case headers
    /// `GET /flaky`: 503 twice per server, then 200.
    case flaky
    /// `GET /broken`: 200 with malformed JSON.
    case broken

    /// The path of the route.
    public var path: String {
        switch self {
        case .headers: "/headers"
        case .flaky: "/flaky"
        case .broken: "/broken"
        }
    }
}
