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
    /// The proxies the session was made with, if any.
    let proxies: URLSessionProxies?
    private let owns: Bool

    /// Creates a session from a copy of `configuration` without Foundation's cache, with a
    /// ``SessionDelegate``, and owns it.
    /// With `trust`, the delegate answers TLS challenges by it, and the configuration's
    /// minimum TLS version is the trust's (Apple platforms). With `proxies`, the
    /// configuration's `connectionProxyDictionary` is theirs and the delegate answers
    /// their challenges.
    init(configuration: URLSessionConfiguration, trust: URLSessionTrust? = nil, proxies: URLSessionProxies? = nil) {
        let delegate = SessionDelegate(trust: trust, proxies: proxies)
        let configuration = Self.withoutCache(configuration)
        if let proxies, !proxies.settings.servers.isEmpty {
            configuration.connectionProxyDictionary = proxies.dictionary
        }
        #if !canImport(FoundationNetworking)
            if trust?.minimumVersion == .tls13 { configuration.tlsMinimumSupportedProtocolVersion = .TLSv13 }
        #endif
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        self.delegate = delegate
        self.proxies = proxies
        self.owns = true
    }

    /// Borrows `session`: the caller keeps ownership.
    init(borrowing session: URLSession) {
        self.session = session
        self.delegate = session.delegate as? SessionDelegate
        self.proxies = nil
        self.owns = false
    }

    /// A copy of `configuration` whose sessions neither read nor write a `URLCache`, and
    /// neither send nor store cookies.
    ///
    /// `.default` and `.ephemeral` come with a `URLCache` on Apple platforms: responses
    /// could be answered from it behind Strata's own cache and validators (a `max-age`
    /// response would never reach the server again, a revalidation could come back `200`
    /// from Foundation instead of the server's `304`). Caching is `CacheMiddleware`'s.
    /// They also keep cookies in `HTTPCookieStorage`, by rules Strata does not control, on
    /// Linux too: a cookie could go twice, or where a `CookieJar` would not send it.
    /// Cookies are `CookieMiddleware`'s.
    static func withoutCache(_ configuration: URLSessionConfiguration) -> URLSessionConfiguration {
        let copy = configuration.copy() as? URLSessionConfiguration ?? configuration
        copy.urlCache = nil
        copy.requestCachePolicy = .reloadIgnoringLocalCacheData
        copy.httpCookieStorage = nil
        copy.httpShouldSetCookies = false
        copy.httpCookieAcceptPolicy = .never
        return copy
    }

    deinit {
        if owns { session.finishTasksAndInvalidate() }
    }
}
