import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Holds a transport's session and, when the transport created it, invalidates it
/// once the last copy of the transport is gone (a session keeps its resources until
/// it is invalidated).
final class SessionOwner: Sendable {
    let session: URLSession
    /// The session's delegate when a transport created the session; `nil` for other
    /// borrowed sessions.
    let challenges: ChallengeDelegate?
    private let owns: Bool

    /// Creates a session from `configuration` with a ``ChallengeDelegate``, and owns it.
    init(configuration: URLSessionConfiguration) {
        let delegate = ChallengeDelegate()
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        self.challenges = delegate
        self.owns = true
    }

    /// Borrows `session`: the caller keeps ownership.
    init(borrowing session: URLSession) {
        self.session = session
        // A session borrowed from another transport keeps handing over challenged responses.
        self.challenges = session.delegate as? ChallengeDelegate
        self.owns = false
    }

    deinit {
        if owns { session.finishTasksAndInvalidate() }
    }
}
