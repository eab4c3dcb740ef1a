import AsyncHTTPClient
import NIOSSL
import Strata
import StrataNIOSSL

/// A `ServerTrust` as AsyncHTTPClient applies it: one `TLSConfiguration` per policy,
/// made (and its certificates and keys parsed) once, when the transport is made; each
/// `https` request gets the one of its host.
struct TrustConfigurations: Sendable {
    /// The transport's name in `TrustConfigurationError`.
    static let transportName = "AsyncHTTPClientTransport"

    private let trust: ServerTrust
    /// The configurations of `trust.hostPolicies`, in order.
    private let hosts: [TLSConfiguration]
    private let fallback: TLSConfiguration

    /// The configurations of `trust`, each starting from `base` (the client's own TLS
    /// configuration, or AsyncHTTPClient's default).
    /// - Throws: `TrustConfigurationError` for pins (AsyncHTTPClient has no hook to see
    ///   the server's chain: swift-server/async-http-client#285), and for a root or an
    ///   identity swift-nio-ssl cannot read.
    init(_ trust: ServerTrust, base: TLSConfiguration?) throws(TrustConfigurationError) {
        let base = base ?? .makeClientConfiguration()
        self.trust = trust
        var hosts: [TLSConfiguration] = []
        for entry in trust.hostPolicies {
            do throws(TrustConfigurationError) {
                hosts.append(try Self.configuration(entry.policy, base: base))
            } catch {
                throw error.forHost(entry.pattern)
            }
        }
        self.hosts = hosts
        self.fallback = try Self.configuration(trust.defaultPolicy, base: base)
    }

    /// The configuration for a request to `authority`.
    func configuration(forAuthority authority: String) -> TLSConfiguration {
        let entry = trust.entry(forAuthority: authority)
        guard let pattern = entry.pattern, let index = trust.hostPolicies.firstIndex(where: { $0.pattern == pattern })
        else { return fallback }
        return hosts[index]
    }

    private static func configuration(_ policy: TrustPolicy, base: TLSConfiguration) throws(TrustConfigurationError)
        -> TLSConfiguration
    {
        guard policy.pins.isEmpty else {
            throw TrustConfigurationError(
                .pins, transport: transportName,
                reason:
                    "AsyncHTTPClient exposes no hook to check the server's keys (swift-server/async-http-client#285); "
                    + "trust only a CA you ship (roots: .only), or pin over StrataGRPC or URLSession on Apple platforms"
            )
        }
        var configuration = base
        switch policy.roots {
        case .system: break
        case .systemAnd(let roots):
            configuration.additionalTrustRoots = [
                .certificates(try NIOSSLCertificate.reading(roots, for: .roots, transport: transportName))
            ]
        case .only(let roots):
            configuration.trustRoots = .certificates(
                try NIOSSLCertificate.reading(roots, for: .roots, transport: transportName))
        }
        if let identity = try policy.clientIdentity?.nioSSL(transport: transportName) {
            configuration.certificateChain = identity.chain.map { .certificate($0) }
            configuration.privateKey = .privateKey(identity.key)
        }
        configuration.minimumTLSVersion = policy.minimumVersion == .tls13 ? .tlsv13 : .tlsv12
        return configuration
    }
}
