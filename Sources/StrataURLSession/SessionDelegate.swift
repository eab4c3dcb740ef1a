import Foundation
import Strata

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delegate of the sessions ``URLSessionTransport`` creates: it routes each task's
/// events, by task identifier, to the ``SessionTaskRelay`` registered for it, refuses
/// redirects, and ends authentication challenges.
///
/// - **Responses and bodies**: the head, each chunk of the body, the request body's
///   bytes sent and the completion go to the task's relay. Tasks nobody registered (made directly on the session) are
///   left alone; an relay is forgotten when its task completes.
/// - **Redirects**: `urlSession(_:task:willPerformHTTPRedirection:newRequest:completionHandler:)`
///   answers `nil`, so the `3xx` response itself, with its `Location` and body, is
///   delivered; this holds for every task of the session.
/// - **Authentication challenges** (Linux): `FoundationNetworking` turns a `401` with a
///   `WWW-Authenticate` header into a challenge, and without credentials to offer it
///   neither retries nor completes: the task hangs. So the challenge is cancelled (the
///   task completes with `URLError.cancelled` after the `401` and its body were
///   delivered) and the relay is told, so that it ends the body normally. TLS-level
///   challenges (server trust, client certificate) get default handling. On Apple
///   platforms every challenge gets default handling, as without a delegate: a `401`
///   the session cannot answer from its credential storage is delivered with its body.
/// - **Proxy challenges** (Apple platforms), when the transport was given
///   `ProxySettings`: answered once with the proxy's credentials.
/// - **TLS challenges** (Apple platforms), when the transport was given a
///   `ServerTrust`: answered by ``URLSessionTrust`` for hosts whose policy is not the
///   system's; a refused server is remembered for its task, whose call then fails with a
///   `TransportError` of kind `.tls` carrying the `TLSFailure`.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// The authentication methods of TLS-level challenges. `FoundationNetworking` defines
    /// neither constant (it never issues such challenges); these are their values.
    static let tlsMethods: Set<String> = [serverTrustMethod, clientCertificateMethod]
    /// `NSURLAuthenticationMethodServerTrust`.
    static let serverTrustMethod = "NSURLAuthenticationMethodServerTrust"
    /// `NSURLAuthenticationMethodClientCertificate`.
    static let clientCertificateMethod = "NSURLAuthenticationMethodClientCertificate"

    private let relays = Locked<[Int: SessionTaskRelay]>([:])
    /// Whom the session trusts, when the transport was given a `ServerTrust`.
    private let trust: URLSessionTrust?
    /// The refusals of server trust, by task, until the task completes: its error then.
    private let refusals = Locked<[Int: TLSFailure]>([:])

    /// The proxies of the session, whose challenges are answered with their credentials.
    private let proxies: URLSessionProxies?

    /// A delegate that applies `trust` to TLS challenges (Apple platforms), or leaves them
    /// to default handling when it is `nil`, and answers the challenges of `proxies`.
    init(trust: URLSessionTrust? = nil, proxies: URLSessionProxies? = nil) {
        self.trust = trust
        self.proxies = proxies
    }

    /// Routes the events of `task` to `relay` until the task completes; call it
    /// before resuming the task.
    func register(_ relay: SessionTaskRelay, for task: URLSessionTask) {
        relays.withLock { $0[task.taskIdentifier] = relay }
    }

    /// How many tasks have an relay registered: none once every task has completed.
    var registeredCount: Int {
        relays.withLock { $0.count }
    }

    private func relay(for task: URLSessionTask) -> SessionTaskRelay? {
        relays.withLock { $0[task.taskIdentifier] }
    }

    /// Hands the response head to the task's relay and lets the transfer go on.
    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        relay(for: dataTask)?.receive(response)
        completionHandler(.allow)
    }

    /// Hands a chunk of the body to the task's relay.
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        relay(for: dataTask)?.receive(data)
    }

    /// Tells the task's relay how much of the request body has been sent.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        relay(for: task)?.sentBytesHandler?(totalBytesSent)
    }

    /// Ends the task's relay, with `error` when the task failed, and forgets it.
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let relay = relays.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        let refusal = refusals.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        relay?.complete(
            refusal.map { TransportError(tlsFailure: $0, underlying: error) } ?? error, response: task.response)
    }

    /// Refuses every redirect: the `3xx` response is delivered as the final one.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// Answers `challenge` for `task`; see the type's documentation.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        if let trust, let answer = answer(challenge, task: task, trust: trust) {
            completionHandler(answer.0, answer.1)
            return
        }
        if challenge.protectionSpace.isProxy() {
            let credential = proxyCredential(for: challenge)
            completionHandler(credential == nil ? .performDefaultHandling : .useCredential, credential)
            return
        }
        completionHandler(disposition(for: challenge, task: task), nil)
    }

    /// The answer to a TLS challenge under the transport's `ServerTrust`; `nil` for
    /// default handling (the host's policy has nothing to say about it). Only Apple
    /// platforms hand a delegate TLS challenges, and only there is a `ServerTrust` other
    /// than the system's accepted (``URLSessionTrust``).
    private func answer(_ challenge: URLAuthenticationChallenge, task: URLSessionTask, trust: URLSessionTrust)
        -> (URLSession.AuthChallengeDisposition, URLCredential?)?
    {
        let space = challenge.protectionSpace
        switch space.authenticationMethod {
        case Self.serverTrustMethod:
            #if canImport(Security) && canImport(CryptoKit) && !canImport(FoundationNetworking)
                guard let serverTrust = space.serverTrust else { return nil }
                let answer = trust.answer(
                    SecTrustEvaluation(trust: serverTrust), host: space.host, sha256: URLSessionTrust.sha256)
                let acceptance = URLCredential(trust: serverTrust)
            #else
                let answer = ServerTrustAnswer.defaultHandling
                let acceptance: URLCredential? = nil
            #endif
            switch answer {
            case .defaultHandling: return nil
            case .trusted: return (.useCredential, acceptance)
            case .refused(let failure):
                refusals.withLock { $0[task.taskIdentifier] = failure }
                return (.cancelAuthenticationChallenge, nil)
            }
        case Self.clientCertificateMethod:
            return trust.clientCredential(forHost: space.host).map { (.useCredential, $0) }
        default:
            return nil
        }
    }

    /// The credential a proxy's challenge gets: its credentials from the settings, the
    /// first time only (a second challenge means they were refused, and the `407` then
    /// reaches the transport, which reports it naming the proxy); `nil` for default handling.
    private func proxyCredential(for challenge: URLAuthenticationChallenge) -> URLCredential? {
        let space = challenge.protectionSpace
        guard challenge.previousFailureCount == 0,
            let credentials = proxies?.credentials(forProxyHost: space.host, port: space.port)
        else { return nil }
        return URLCredential(user: credentials.username, password: credentials.password, persistence: .forSession)
    }

    private func disposition(
        for challenge: URLAuthenticationChallenge,
        task: URLSessionTask
    ) -> URLSession.AuthChallengeDisposition {
        #if canImport(FoundationNetworking)
            guard !Self.tlsMethods.contains(challenge.protectionSpace.authenticationMethod) else {
                return .performDefaultHandling
            }
            relay(for: task)?.challengeCancelled(failureResponse: challenge.failureResponse as? HTTPURLResponse)
            return .cancelAuthenticationChallenge
        #else
            return .performDefaultHandling
        #endif
    }
}
