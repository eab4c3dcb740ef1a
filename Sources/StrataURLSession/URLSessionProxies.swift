import Foundation
import HTTPTypes
import Strata

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `ProxySettings` as `URLSession` applies them: the session configuration's
/// `connectionProxyDictionary` (CFNetwork's keys, with their string values), the proxy's
/// credentials answered when it challenges, and its `407` turned into a typed failure.
///
/// `FoundationNetworking` on Linux keeps `connectionProxyDictionary` and never reads it
/// (libcurl is given no proxy option: it reads only the process environment's
/// `http_proxy`, `HTTPS_PROXY`, `ALL_PROXY` and `NO_PROXY`), so there the transport refuses
/// settings that name a proxy rather than send direct what they send through one.
struct URLSessionProxies: Sendable {
    /// The transport's name in `ProxyConfigurationError`.
    static let transportName = "URLSessionTransport"

    /// Whether this platform's `URLSession` honours `connectionProxyDictionary`.
    static var platformHonoursDictionary: Bool {
        #if canImport(FoundationNetworking)
            false
        #else
            true
        #endif
    }

    let settings: ProxySettings

    /// The settings, checked against what `URLSession` can apply.
    /// - Throws: `ProxyConfigurationError` when the platform ignores the dictionary
    ///   (Linux), for SOCKS5 credentials (the dictionary has no place for them that every
    ///   Apple platform reads), and for a SOCKS5 proxy for one scheme only (the
    ///   dictionary's SOCKS proxy carries every connection).
    init(_ settings: ProxySettings, honoursDictionary: Bool = platformHonoursDictionary)
        throws(ProxyConfigurationError)
    {
        let servers = settings.servers
        if !servers.isEmpty, !honoursDictionary {
            throw ProxyConfigurationError(
                .server, transport: Self.transportName,
                reason: "FoundationNetworking on Linux ignores connectionProxyDictionary (libcurl reads only the "
                    + "process environment's http_proxy, HTTPS_PROXY, ALL_PROXY and NO_PROXY); "
                    + "use AsyncHTTPClientTransport for a proxy on Linux")
        }
        if let socks = servers.first(where: { $0.kind == .socks5 }) {
            guard socks.credentials == nil else {
                throw ProxyConfigurationError(
                    .credentials, transport: Self.transportName,
                    reason: "URLSession takes no SOCKS5 credentials in connectionProxyDictionary (\(socks.endpoint))")
            }
            guard settings.http == socks, settings.https == socks else {
                throw ProxyConfigurationError(
                    .server, transport: Self.transportName,
                    reason: "URLSession's SOCKS proxy carries every connection; give \(socks.endpoint) "
                        + "for both schemes (ProxySettings(all:))")
            }
        }
        self.settings = settings
    }

    /// The session's `connectionProxyDictionary`: CFNetwork's keys (`kCFNetworkProxiesHTTPEnable`
    /// and its siblings) by their string values, and the bypass list as `ExceptionsList`
    /// patterns (`example.com` and `*.example.com` for a domain).
    var dictionary: [String: Any] {
        var dictionary: [String: Any] = [:]
        if let socks = settings.http, socks.kind == .socks5 {
            dictionary["SOCKSEnable"] = 1
            dictionary["SOCKSProxy"] = socks.host
            dictionary["SOCKSPort"] = socks.port
        } else {
            for (prefix, server) in [("HTTP", settings.http), ("HTTPS", settings.https)] {
                guard let server else { continue }
                dictionary["\(prefix)Enable"] = 1
                dictionary["\(prefix)Proxy"] = server.host
                dictionary["\(prefix)Port"] = server.port
            }
        }
        let exceptions = settings.bypass.flatMap(\.hostPatterns)
        if !exceptions.isEmpty { dictionary["ExceptionsList"] = exceptions }
        return dictionary
    }

    /// The credentials to answer a proxy's challenge from `host`:`port` with; `nil` when no
    /// proxy of the settings is there or it has none.
    func credentials(forProxyHost host: String, port: Int) -> ProxySettings.Credentials? {
        let name = host.lowercased()
        return settings.servers.first { $0.host == name && $0.port == port }?.credentials
    }

    /// The failure a `407` answer to `request` stands for, naming the proxy; `nil` for any
    /// other response, or a request that did not go through a proxy.
    func failure(for response: HTTPResponse, to request: HTTPRequest) -> TransportError? {
        guard response.status.code == 407, let proxy = settings.server(for: request) else { return nil }
        return proxy.authenticationRequired()
    }
}
