/// Endpoints that stream server-sent events.
public enum StreamsRoute: DemoPath {
    /// `GET /chat`: a chat completion, a token an event, then `[DONE]`.
    case chat
    /// `GET /notifications`: twelve notifications over connections that drop.
    case notifications

    /// The path of the route.
    public var path: String {
        switch self {
        case .chat: "/chat"
        case .notifications: "/notifications"
        }
    }
}
