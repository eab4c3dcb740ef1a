/// A proxy setting that is not valid, or that a transport cannot honour.
///
/// Thrown when a value is read (a proxy URL that is not one, a bypass entry that names no
/// host) and when a transport is made with ``ProxySettings`` it cannot apply as asked: a
/// transport never ignores a proxy, since a request that silently went direct would leave
/// the network it was meant to stay in.
public struct ProxyConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which setting it is.
    public struct Setting: Hashable, Sendable, CustomStringConvertible {
        /// A short name, for example `SOCKS credentials`.
        public let description: String

        private init(_ description: String) { self.description = description }

        /// A proxy server: its URL, scheme, host or port.
        public static let server = Setting("proxy server")
        /// A proxy's ``ProxySettings/Credentials``.
        public static let credentials = Setting("proxy credentials")
        /// An entry of ``ProxySettings/bypass``.
        public static let bypass = Setting("proxy bypass")
        /// WebSockets through a proxy.
        public static let webSocket = Setting("WebSocket through a proxy")
        /// A proxy the transport's own configuration already sets.
        public static let transportProxy = Setting("transport's own proxy")
    }

    /// The setting.
    public let setting: Setting
    /// The transport that cannot honour it (`AsyncHTTPClientTransport`, …); `nil` when the
    /// value itself is not valid.
    public let transport: String?
    /// What is wrong, in one sentence. It never contains a password.
    public let reason: String

    /// Creates the error.
    /// - Parameters:
    ///   - setting: the setting.
    ///   - transport: the transport that cannot honour it; `nil` for a value that is not valid.
    ///   - reason: what is wrong, in one sentence, without a password.
    public init(_ setting: Setting, transport: String? = nil, reason: String) {
        self.setting = setting
        self.transport = transport
        self.reason = reason
    }

    /// For example `AsyncHTTPClientTransport cannot apply proxy credentials: …`.
    public var description: String {
        if let transport { return "\(transport) cannot apply \(setting): \(reason)" }
        return "invalid \(setting): \(reason)"
    }
}
