// The redirect feature's per-call values and settings, under its own keys.

/// The hop a request follows, passed down the chain by ``RedirectMiddleware``.
enum RedirectHopKey: CallValueKey {
    typealias Value = RedirectHop
}

extension MiddlewareContext {
    /// The redirect this request follows, set by ``RedirectMiddleware``; `nil` for the
    /// call's first request. When ``RedirectHop/withholdsCredentials`` is set, the
    /// credential fields are removed from the request just before the transport, whatever
    /// middleware added on the way (``withholdsCredentials``).
    public var redirect: RedirectHop? {
        get { values[RedirectHopKey.self] }
        set {
            values[RedirectHopKey.self] = newValue
            withholdsCredentials = newValue?.withholdsCredentials ?? false
        }
    }
}

extension StrataError.Kind {
    /// A redirect was not followed: too many, a loop, `https` to `http`, a bad
    /// `Location`, or a body that cannot be resent; see ``RedirectError``.
    public static let redirect = StrataError.Kind("redirect") { error in
        "redirect not followed: \(error.underlying.map { String(describing: $0) } ?? "")"
    }
}

extension Networker.Configuration {
    /// The steps a configuration installs by default: the redirect step.
    static var standardMiddleware: [any Middleware] { [RedirectMiddleware()] }

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
