/// Why `Networker.events(_:)` stopped reconnecting, the
/// ``StrataError/underlying`` error of a ``StrataError/Kind/eventStream`` failure.
public enum EventStreamError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered 204 No Content: the standard's way to say "do not reconnect".
    case closedByServer
    /// ``ReconnectionPolicy/maximumReconnections`` were made.
    case reconnectionLimitReached(Int)
    /// The retry budget had no token left for another reconnection.
    case budgetSpent

    /// A one-line description for logs.
    public var description: String {
        switch self {
        case .closedByServer: "the server closed the event stream (204 No Content: do not reconnect)"
        case .reconnectionLimitReached(let count): "stopped after \(count) reconnections (the policy's limit)"
        case .budgetSpent: "the retry budget has no reconnection left"
        }
    }
}

extension StrataError.Kind {
    /// An event stream stopped reconnecting (``EventStreamError``).
    public static let eventStream = StrataError.Kind("eventStream")
}
