import AsyncHTTPClient
import NIOCore

extension HTTPClient.Configuration {
    /// The configuration ``AsyncHTTPClientTransport/init(configuration:)`` uses by default.
    ///
    /// It differs from `HTTPClient.Configuration()` where Strata needs it to:
    /// - **decompression on** (`gzip`, `deflate`), refusing bodies that inflate more than
    ///   100 times their compressed size (a guard against decompression bombs, reported as
    ///   `StrataError.Kind.bodyTooLarge`); the plain configuration leaves compressed
    ///   bytes to the caller;
    /// - **redirects not followed**: the `3xx` response is returned, and the
    ///   `Networker`'s `RedirectMiddleware` follows it under its `RedirectPolicy`, the
    ///   same on every transport (credentials withheld from other origins, no `https` to
    ///   `http`); a client that follows redirects itself would bypass that policy;
    /// - **connect timeout 10 seconds**; no read timeout, since every request carries
    ///   its own deadline;
    /// - **no silent connection retries**: a refused connection fails at once with
    ///   `TransportError.Kind.connectionRefused` instead of being retried until the connect
    ///   timeout. Retrying is the job of retry middleware, which sees every attempt.
    public static var strataDefault: Self {
        var configuration = HTTPClient.Configuration()
        configuration.decompression = .enabled(limit: .ratio(100))
        configuration.redirectConfiguration = .disallow
        configuration.timeout = Timeout(connect: .seconds(10))
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }
}
