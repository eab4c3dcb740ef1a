// The features a client has without being asked: assembled here, outside the core, which
// only installs the list (``Networker/Configuration/defaultMiddleware``).

extension Networker.Configuration {
    /// The steps a configuration installs by default, outermost first: the redirect step
    /// (``redirects``).
    static var standardMiddleware: [any Middleware] { [RedirectMiddleware()] }
}
