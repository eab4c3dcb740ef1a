import Foundation

extension ProxySettings {
    /// The proxy settings of the process's environment, read as curl reads them; `nil`
    /// when it names no proxy.
    ///
    /// - `http` URLs: `http_proxy` (lowercase only: a CGI program receives a request's
    ///   `Proxy:` header as `HTTP_PROXY`, so curl never reads that name), else `all_proxy`
    ///   or `ALL_PROXY`;
    /// - `https` URLs: `https_proxy` or `HTTPS_PROXY`, else `all_proxy` or `ALL_PROXY`;
    /// - hosts that go direct: `no_proxy` or `NO_PROXY` (see ``Bypass``).
    ///
    /// The lowercase name wins when both are set; an empty value counts as unset. A
    /// `NO_PROXY` entry that cannot be read is skipped, as curl skips it (it could never
    /// match).
    /// - Parameter environment: the variables; the process's own unless told.
    /// - Throws: ``ProxyConfigurationError`` for a proxy URL that cannot be read (its
    ///   password is not repeated).
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(ProxyConfigurationError) -> ProxySettings?
    {
        func value(_ names: String...) -> String? {
            names.lazy.compactMap { environment[$0] }.first { !$0.allSatisfy(\.isWhitespace) }
        }
        func server(_ names: String...) throws(ProxyConfigurationError) -> Server? {
            guard let name = names.first(where: { value($0) != nil }), let url = value(name) else { return nil }
            do {
                return try Server(url: url)
            } catch {
                throw ProxyConfigurationError(error.setting, reason: "\(name): \(error.reason)")
            }
        }
        let all = try server("all_proxy", "ALL_PROXY")
        let http = try server("http_proxy") ?? all
        let https = try server("https_proxy", "HTTPS_PROXY") ?? all
        guard http != nil || https != nil else { return nil }
        let bypass = (value("no_proxy", "NO_PROXY") ?? "").split(separator: ",").compactMap {
            try? Bypass(String($0))
        }
        return ProxySettings(http: http, https: https, bypass: bypass)
    }
}
