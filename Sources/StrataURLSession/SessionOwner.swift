import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Holds a transport's session and, when the transport created it, invalidates it
/// once the last copy of the transport is gone (a session keeps its resources until
/// it is invalidated).
final class SessionOwner: Sendable {
    let session: URLSession
    /// The session's delegate when it is a ``SessionDelegate`` (the transport created
    /// the session, or borrowed one another transport created): requests then stream.
    /// `nil` for other borrowed sessions, whose requests run with completion handlers.
    let delegate: SessionDelegate?
    private let owns: Bool

    /// Creates a session from `configuration` with a ``SessionDelegate``, and owns it.
    init(configuration: URLSessionConfiguration) {
        let delegate = SessionDelegate()
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        self.delegate = delegate
        self.owns = true
    }

    /// Borrows `session`: the caller keeps ownership.
    init(borrowing session: URLSession) {
        self.session = session
        self.delegate = session.delegate as? SessionDelegate
        self.owns = false
    }

    deinit {
        if owns { session.finishTasksAndInvalidate() }
    }
}
