import AsyncHTTPClient
import HTTPTypes
import Strata

/// `ProxySettings` as AsyncHTTPClient applies them: one client per proxy (AsyncHTTPClient
/// takes one proxy per client, for every request), made when the transport is made; each
/// request goes to the client of its proxy, or to the transport's own client when it goes
/// direct (a bypassed host, a scheme without a proxy).
struct ProxyClients: Sendable {
    /// The transport's name in `ProxyConfigurationError`.
    static let transportName = "AsyncHTTPClientTransport"

    let settings: ProxySettings
    private let clients: [ProxySettings.Server: OwnedClient]

    /// A client per proxy of `settings`, each from `configuration` with that proxy.
    /// - Throws: `ProxyConfigurationError` for SOCKS5 credentials (AsyncHTTPClient's SOCKS
    ///   client speaks only the method without authentication) and for a `configuration`
    ///   that sets a proxy of its own.
    init(_ settings: ProxySettings, configuration: HTTPClient.Configuration) throws(ProxyConfigurationError) {
        guard configuration.proxy == nil else {
            throw ProxyConfigurationError(
                .transportProxy, transport: Self.transportName,
                reason: "the HTTPClient.Configuration sets a proxy too; set it in one place, the ProxySettings")
        }
        var clients: [ProxySettings.Server: OwnedClient] = [:]
        for server in settings.servers {
            var proxied = configuration
            proxied.proxy = try Self.proxy(server)
            clients[server] = OwnedClient(
                HTTPClient(eventLoopGroup: AsyncHTTPClientTransport.eventLoopGroup, configuration: proxied))
        }
        self.settings = settings
        self.clients = clients
    }

    /// The proxy `request` goes through and its client; `nil`: the request goes direct.
    func route(for request: HTTPRequest) -> (server: ProxySettings.Server, owner: OwnedClient)? {
        guard let server = settings.server(for: request), let owner = clients[server] else { return nil }
        return (server, owner)
    }

    /// Shuts down every proxy's client (each at most once).
    func shutdown() async throws {
        for owner in clients.values { try await AsyncHTTPClientTransport.shutdown(owner.client) }
    }

    private static func proxy(_ server: ProxySettings.Server) throws(ProxyConfigurationError)
        -> HTTPClient.Configuration.Proxy
    {
        switch server.kind {
        case .http:
            return .server(
                host: server.host, port: server.port,
                authorization: server.credentials.map { .basic(username: $0.username, password: $0.password) })
        case .socks5:
            guard server.credentials == nil else {
                throw ProxyConfigurationError(
                    .credentials, transport: transportName,
                    reason: "AsyncHTTPClient's SOCKS5 client has no username/password authentication "
                        + "(\(server.endpoint)); use an HTTP proxy, or a SOCKS5 proxy that needs none")
            }
            return .socksServer(host: server.host, port: server.port)
        }
    }
}

extension TransportError {
    /// This error as it happened on the way through `proxy` to `origin`: a detail that names
    /// the proxy (never a password) for the failures that are the proxy's — its answer to
    /// the credentials or the tunnel, and reaching it at all.
    func through(_ proxy: ProxySettings.Server, to origin: String) -> TransportError {
        switch (kind, underlying as? HTTPClientError) {
        case (.proxy, .proxyAuthenticationRequired?):
            return proxy.authenticationRequired(underlying: underlying)
        case (.proxy, .invalidProxyResponse?):
            return TransportError(
                kind, underlying: underlying, detail: "\(proxy.label) refused to open a tunnel to \(origin)")
        default:
            guard [.proxy, .connectionRefused, .hostNotFound, .timedOut].contains(kind), underlying != nil else {
                return self
            }
            return TransportError(kind, underlying: underlying, detail: "\(proxy.label): \(self)")
        }
    }
}
