#if canImport(FoundationNetworking)
    import HTTPTypes
    import Strata

    /// On Linux, `URLSessionWebSocketTask` needs a libcurl built with WebSocket support,
    /// which the distributions' libcurl is not (its tasks fail with "WebSockets not supported
    /// by libcurl"): this transport refuses to open one, and says so. `Networker()` on Linux
    /// runs over AsyncHTTPClient, which opens WebSockets with the `WebSocket` trait.
    extension URLSessionTransport: WebSocketTransport {
        /// Throws `WebSocketError.unsupported(reason:)`: see above.
        public func openWebSocket(
            _ request: HTTPRequest,
            configuration: WebSocketConfiguration,
            deadline: ContinuousClock.Instant?
        ) async throws -> WebSocketHandshake {
            throw WebSocketError.unsupported(reason: Self.webSocketsUnsupported)
        }

        /// Why this transport opens no WebSockets here.
        static let webSocketsUnsupported =
            "URLSession on Linux (FoundationNetworking) needs a libcurl with WebSocket support, which this system's lacks; use AsyncHTTPClientTransport with the WebSocket trait"
    }
#endif
