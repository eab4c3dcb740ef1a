/// A trust setting that is not valid, or that a transport cannot honour.
///
/// Thrown when a value is read (a pin that is not base64 of 32 bytes, a PEM text without a
/// certificate, a host pattern that is not one) and when a transport is made with a
/// ``ServerTrust`` it cannot apply as asked: a transport never ignores a setting.
public struct TrustConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which setting it is.
    public struct Setting: Hashable, Sendable, CustomStringConvertible {
        /// A short name, for example `pins`.
        public let description: String

        private init(_ description: String) { self.description = description }

        /// ``TrustPolicy/roots``.
        public static let roots = Setting("roots")
        /// ``TrustPolicy/pins``.
        public static let pins = Setting("pins")
        /// ``TrustPolicy/clientIdentity``.
        public static let clientIdentity = Setting("client identity")
        /// ``TrustPolicy/minimumVersion``.
        public static let minimumVersion = Setting("minimum TLS version")
        /// A host pattern of ``ServerTrust``, or per-host policies as such.
        public static let hostPattern = Setting("host pattern")
    }

    /// The setting.
    public let setting: Setting
    /// The transport that cannot honour it (`AsyncHTTPClientTransport`, …); `nil` when the
    /// value itself is not valid.
    public let transport: String?
    /// The host pattern whose policy has it; `nil` for the default policy or a value read alone.
    public let host: String?
    /// What is wrong, in one sentence.
    public let reason: String

    /// Creates the error.
    /// - Parameters:
    ///   - setting: the setting.
    ///   - transport: the transport that cannot honour it; `nil` for a value that is not valid.
    ///   - host: the host pattern whose policy has it.
    ///   - reason: what is wrong, in one sentence.
    public init(_ setting: Setting, transport: String? = nil, host: String? = nil, reason: String) {
        self.setting = setting
        self.transport = transport
        self.host = host
        self.reason = reason
    }

    /// For example `AsyncHTTPClientTransport cannot apply pins (host api.example.com): …`.
    public var description: String {
        let place = host.map { " (host \($0))" } ?? ""
        if let transport { return "\(transport) cannot apply \(setting)\(place): \(reason)" }
        return "invalid \(setting)\(place): \(reason)"
    }

    /// This error, for the policy of `pattern` (`nil`: the default policy).
    package func forHost(_ pattern: HostPattern?) -> TrustConfigurationError {
        TrustConfigurationError(setting, transport: transport, host: pattern?.description ?? host, reason: reason)
    }
}
