import Strata

#if os(Linux)
    import StrataAsyncHTTPClient
#endif

extension Networker {
    /// A client over the platform's default transport, with the default configuration
    /// and no middleware: seed 003's `let networker = Networker()`.
    ///
    /// - On Apple platforms the transport is a ``URLSessionTransport`` of its own.
    /// - On Linux it is an `AsyncHTTPClientTransport` of its own: FoundationNetworking's
    ///   `URLSession` stops the whole process (a `fatalError`) on some responses a server
    ///   can send, for example a head cut off by the connection closing, while
    ///   AsyncHTTPClient reports them as a ``TransportError``. Its client shuts down when
    ///   the ``Networker`` (and any body it is still streaming) is released.
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
}
