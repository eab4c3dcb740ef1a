/// Why a ``DemoServer`` could not start.
public enum DemoServerError: Error, Sendable, CustomStringConvertible {
    /// The server stopped before it reported a listening port.
    case didNotStart

    /// A one-line description for the command line.
    public var description: String {
        switch self {
        case .didNotStart: "the demo server did not start (is the port already in use?)"
        }
    }
}
