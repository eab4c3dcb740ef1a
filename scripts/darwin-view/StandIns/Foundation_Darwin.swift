// What Foundation declares on Apple platforms and swift-corelibs-foundation does not, for
// scripts/check-darwin.sh: every file of the Apple view that imports Foundation imports this
// too (and FoundationNetworking, where Linux keeps URLSession). Declarations here shadow
// FoundationNetworking's unavailable ones. Never linked, never run: every body traps.
@_exported import FoundationNetworking
import Security

public let NSURLAuthenticationMethodServerTrust: String = "NSURLAuthenticationMethodServerTrust"
public let NSURLAuthenticationMethodClientCertificate: String = "NSURLAuthenticationMethodClientCertificate"

extension URLProtectionSpace {
    /// The server's trust, for a server-trust challenge.
    public var serverTrust: SecTrust? { fatalError() }
}

extension URLCredential {
    /// A credential that accepts a server's trust.
    public convenience init(trust: SecTrust) { fatalError() }
    /// A client certificate credential: the identity and the intermediates to present.
    public convenience init(identity: SecIdentity, certificates: [Any]?, persistence: URLCredential.Persistence) {
        fatalError()
    }
}

extension URLSessionConfiguration {
    /// The lowest TLS version the session's connections accept.
    public var tlsMinimumSupportedProtocolVersion: tls_protocol_version_t {
        get { fatalError() }
        set { fatalError() }
    }
}

extension URLRequest {
    /// Whether the request may try HTTP/3 (QUIC) at once, without an `Alt-Svc` first.
    public var assumesHTTP3Capable: Bool {
        get { fatalError() }
        set { fatalError() }
    }
}
