import ArgumentParser
import Strata
import StrataAsyncHTTPClient
import StrataURLSession

/// The transports the tour can run on.
enum TransportChoice: String, CaseIterable, ExpressibleByArgument {
    /// `URLSessionTransport`.
    case urlsession
    /// `AsyncHTTPClientTransport`, the default.
    case asynchttpclient

    /// AsyncHTTPClient, on Linux and Apple platforms alike.
    static let `default` = TransportChoice.asynchttpclient

    /// The name the transcript prints.
    var displayName: String {
        switch self {
        case .urlsession: "URLSession"
        case .asynchttpclient: "AsyncHTTPClient"
        }
    }

    /// Creates the transport.
    func open() -> OpenTransport {
        switch self {
        case .urlsession:
            return OpenTransport(transport: URLSessionTransport(), shutdown: {})
        case .asynchttpclient:
            let transport = AsyncHTTPClientTransport()
            return OpenTransport(transport: transport, shutdown: { try await transport.shutdown() })
        }
    }
}

extension TransportChoice {
    /// A transport of this kind that trusts as `trust` says (the Trust section); released
    /// (and an AsyncHTTPClient shut down) when dropped.
    /// - Throws: `TrustConfigurationError` for a setting the transport cannot apply here.
    func trusting(_ trust: ServerTrust) throws -> any Transport {
        switch self {
        case .urlsession: try URLSessionTransport(trust: trust)
        case .asynchttpclient: try AsyncHTTPClientTransport(trust: trust)
        }
    }
}

/// A transport and how to release it: an AsyncHTTPClient must be shut down before
/// the process exits.
struct OpenTransport: Sendable {
    let transport: any Transport
    let shutdown: @Sendable () async throws -> Void
}
