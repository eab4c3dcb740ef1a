// The redirect feature's per-call values and settings, under its own keys.

/// The hop a request follows, passed down the chain by ``RedirectMiddleware``.
enum RedirectHopKey: CallValueKey {
    typealias Value = RedirectHop
}

extension MiddlewareContext {
    /// The redirect this request follows, set by ``RedirectMiddleware``; `nil` for the
    /// call's first request. When ``RedirectHop/withholdsCredentials`` is set, the
    /// redirect step has the credential fields removed from the request just before the
    /// transport, whatever middleware added on the way (``adjustBeforeTransport(_:)``).
    public var redirect: RedirectHop? {
        get { options[RedirectHopKey.self] }
        set { options[RedirectHopKey.self] = newValue }
    }

    /// Whether the credential fields (`Authorization`, `Cookie`, `Proxy-Authorization`) are
    /// removed from the request just before the transport. Setting it to `true` has them
    /// removed, on this context and the copies made from it further in; it cannot be undone.
    @available(*, deprecated, message: "use adjustBeforeTransport(_:); the redirect step withholds credentials itself")
    public var withholdsCredentials: Bool {
        get { options[CredentialsWithheldKey.self] ?? false }
        set {
            guard newValue, !withholdsCredentials else { return }
            options[CredentialsWithheldKey.self] = true
            adjustBeforeTransport { $0.headerFields = $0.headerFields.removingCredentials() }
        }
    }
}

/// Whether a context was told to withhold credentials (the deprecated
/// `MiddlewareContext.withholdsCredentials`).
enum CredentialsWithheldKey: CallValueKey {
    typealias Value = Bool
}

extension StrataError.Kind {
    /// A redirect was not followed: too many, a loop, `https` to `http`, a bad
    /// `Location`, or a body that cannot be resent; see ``RedirectError``.
    public static let redirect = StrataError.Kind("redirect") { error in
        "redirect not followed: \(error.underlying.map { String(describing: $0) } ?? "")"
    }
}

extension Networker.Configuration {
    /// How redirects are followed: a ``RedirectMiddleware`` with this policy runs as the
    /// outermost step (in ``defaultMiddleware``), unless the client's middleware has one
    /// of its own. `nil` returns redirect responses as they are (then the default
    /// validation fails them as ``StrataError/Kind/unacceptableStatus``).
    public var redirects: RedirectPolicy? {
        get { defaultMiddleware.lazy.compactMap { ($0 as? RedirectMiddleware)?.policy }.first }
        set {
            defaultMiddleware.removeAll { $0 is RedirectMiddleware }
            if let newValue { defaultMiddleware.insert(RedirectMiddleware(policy: newValue), at: 0) }
        }
    }
}
