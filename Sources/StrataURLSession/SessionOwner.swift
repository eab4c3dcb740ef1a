import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Holds a transport's session and, when the transport created it, invalidates it
/// once the last copy of the transport is gone (a session keeps its resources until
/// it is invalidated).
final class SessionOwner: Sendable {
    let session: URLSession
    private let owns: Bool

    init(owning session: URLSession) {
        self.session = session
        self.owns = true
    }

    init(borrowing session: URLSession) {
        self.session = session
        self.owns = false
    }

    deinit {
        if owns { session.finishTasksAndInvalidate() }
    }
}
