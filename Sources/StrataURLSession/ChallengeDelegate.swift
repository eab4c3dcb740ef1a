import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of the sessions ``URLSessionTransport`` creates: it ends HTTP
/// authentication challenges so that a `401` reaches the caller instead of hanging.
///
/// `FoundationNetworking` turns a `401` with a `WWW-Authenticate` header into a
/// challenge, and without credentials to offer it neither retries nor delivers the
/// response: the task hangs until it is cancelled. So on Linux this delegate keeps the
/// challenge's `failureResponse` (the `401`) by task identifier and cancels the
/// challenge; the task then completes with `URLError.cancelled`, and ``DataTaskState``
/// collects the response with ``takeFailureResponse(forTask:)`` and returns it.
/// Responses are kept only for tasks announced with ``watch(task:)`` and not yet
/// collected, so none outlives its task. Tasks made directly on the session have their
/// challenges cancelled too (they fail with `URLError.cancelled` instead of hanging).
/// TLS-level challenges (server trust, client certificate) get default handling.
///
/// On Apple platforms every challenge gets default handling, as without a delegate:
/// there, a `401` the session cannot answer from its credential storage is delivered
/// with its body.
///
/// `@unchecked Sendable`: `watched` is only read and written while holding `lock`.
final class ChallengeDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    /// The authentication methods of TLS-level challenges. `FoundationNetworking` defines
    /// neither constant (it never issues such challenges); these are their values.
    static let tlsMethods: Set<String> = [
        "NSURLAuthenticationMethodServerTrust", "NSURLAuthenticationMethodClientCertificate",
    ]

    private let lock = NSLock()
    /// The watched tasks by identifier, with the failure response of their challenge.
    private var watched: [Int: HTTPURLResponse?] = [:]

    /// Answers `challenge` for `task`; see the type's documentation.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(disposition(for: challenge, task: task), nil)
    }

    /// Starts keeping the failure response of a challenge for the task with `identifier`,
    /// until ``takeFailureResponse(forTask:)``; call it before resuming the task.
    func watch(task identifier: Int) {
        lock.lock()
        defer { lock.unlock() }
        watched.updateValue(nil, forKey: identifier)
    }

    /// Stops watching the task with `identifier` and returns the failure response of
    /// its challenge, if it had one; call it once the task has completed.
    func takeFailureResponse(forTask identifier: Int) -> HTTPURLResponse? {
        lock.lock()
        defer { lock.unlock() }
        return watched.removeValue(forKey: identifier) ?? nil
    }

    /// How many tasks are watched: none once every task has completed.
    var watchedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return watched.count
    }

    private func disposition(
        for challenge: URLAuthenticationChallenge,
        task: URLSessionTask
    ) -> URLSession.AuthChallengeDisposition {
        #if canImport(FoundationNetworking)
        guard !Self.tlsMethods.contains(challenge.protectionSpace.authenticationMethod) else {
            return .performDefaultHandling
        }
        if let response = challenge.failureResponse as? HTTPURLResponse {
            lock.lock()
            if watched.index(forKey: task.taskIdentifier) != nil {
                watched.updateValue(response, forKey: task.taskIdentifier)
            }
            lock.unlock()
        }
        return .cancelAuthenticationChallenge
        #else
        return .performDefaultHandling
        #endif
    }
}
