import Strata

#if os(Linux)
    import StrataAsyncHTTPClient
#endif

extension Networker {
    /// A client over the platform's default transport, with the default configuration
    /// and no middleware: the Endpoint + Networker + Result pattern's `let networker = Networker()`.
    ///
    /// - On Apple platforms the transport is a ``URLSessionTransport`` of its own.
    /// - On Linux it is an `AsyncHTTPClientTransport` of its own: FoundationNetworking's
    ///   `URLSession` stops the whole process (a `fatalError`) when a connection closes
    ///   in the middle of a response head, which any failing server or proxy can cause,
    ///   while AsyncHTTPClient reports it as a `TransportError`. (AsyncHTTPClient 1.37
    ///   has one crash of its own, on a status code under 100, a
    ///   response no server sends by mistake.) Its client shuts down when the
    ///   ``Networker`` (and any body it is still streaming) is released.
    ///   `Networker(transport: URLSessionTransport())` still gives a URLSession client there
    ///   (see ``URLSessionTransport`` for the responses that crash it).
    ///
    /// Each call creates a new session or client, so make the client once and share it.
    public init() {
        #if os(Linux)
            self.init(transport: AsyncHTTPClientTransport())
        #else
            self.init(transport: URLSessionTransport())
        #endif
    }

    /// A client over the platform's default transport (as ``init()``) that trusts servers
    /// as `trust` says.
    ///
    /// On Apple platforms the URLSession transport applies it (roots, pins, a PKCS #12
    /// identity, one minimum version for all hosts); on Linux the AsyncHTTPClient
    /// transport does (roots, a PEM or PKCS #12 identity, a minimum version per host; no
    /// pins). See the "Trust and TLS" article.
    /// - Parameter trust: whom the client trusts over TLS, per host.
    /// - Throws: `TrustConfigurationError` naming the transport and the setting it
    ///   cannot apply.
    public init(trust: ServerTrust) throws(TrustConfigurationError) {
        #if os(Linux)
            self.init(transport: try AsyncHTTPClientTransport(trust: trust))
        #else
            self.init(transport: try URLSessionTransport(trust: trust))
        #endif
    }
}
