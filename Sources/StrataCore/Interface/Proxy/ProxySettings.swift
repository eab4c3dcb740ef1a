import HTTPTypes

/// Which proxy each request goes through, the same on every transport: an HTTP proxy
/// (plain requests and `CONNECT` tunnels) or a SOCKS5 proxy, per URL scheme, with
/// optional credentials, and hosts that go direct.
///
/// ```swift
/// let proxy = ProxySettings(
///     all: try ProxySettings.Server(url: "http://alice:secret@proxy.internal:3128"),
///     bypass: try ProxySettings.Bypass.list("localhost, .internal, 10.0.0.0/8"))
/// ```
///
/// or, as curl reads it, from `http_proxy`, `HTTPS_PROXY`, `ALL_PROXY` and `NO_PROXY`:
/// ``fromEnvironment(_:)``. A transport applies the settings when it is made, or refuses
/// them with a ``ProxyConfigurationError`` naming the setting it cannot honour; it never
/// sends a request direct that the settings send through a proxy.
///
/// Credentials go only to the proxy (`Proxy-Authorization` on the `CONNECT` or proxied
/// request, or the SOCKS handshake), never to the origin, and no description of these
/// values shows a password.
public struct ProxySettings: Sendable, Hashable, CustomStringConvertible {
    /// The proxy for `http` (and `ws`) URLs; `nil`: they go direct.
    public var http: Server?
    /// The proxy for `https` (and `wss`) URLs; `nil`: they go direct.
    public var https: Server?
    /// Hosts that go direct whatever their scheme.
    public var bypass: [Bypass]

    /// Creates settings with a proxy per scheme.
    /// - Parameters:
    ///   - http: the proxy for `http` and `ws` URLs; `nil`: direct.
    ///   - https: the proxy for `https` and `wss` URLs; `nil`: direct.
    ///   - bypass: hosts that go direct.
    public init(http: Server? = nil, https: Server? = nil, bypass: [Bypass] = []) {
        self.http = http
        self.https = https
        self.bypass = bypass
    }

    /// Creates settings that send every request through `server`, but to the hosts of `bypass`.
    /// - Parameters:
    ///   - server: the proxy for every scheme.
    ///   - bypass: hosts that go direct.
    public init(all server: Server, bypass: [Bypass] = []) {
        self.init(http: server, https: server, bypass: bypass)
    }

    /// The proxies the settings name, each once, the `http` one first.
    public var servers: [Server] {
        [http, https].compactMap { $0 }.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// The proxy a request to `host` over `scheme` goes through; `nil`: it goes direct.
    /// - Parameters:
    ///   - scheme: the URL's scheme (`http`, `https`, `ws`, `wss`), in any case.
    ///   - host: the host, a name or an address, with or without IPv6 brackets.
    public func server(forScheme scheme: String?, host: String) -> Server? {
        let server: Server? =
            switch scheme?.lowercased() {
            case "http", "ws": http
            case "https", "wss": https
            default: nil
            }
        guard let server else { return nil }
        let name = HostPattern.normalized(host)
        return bypass.contains { $0.matches(normalized: name) } ? nil : server
    }

    /// The proxy `request` goes through; `nil`: it goes direct.
    public func server(for request: HTTPRequest) -> Server? {
        guard let authority = request.authority else { return nil }
        return server(forScheme: request.scheme, host: HostPattern.host(ofAuthority: authority))
    }

    /// For example `http: http://alice:<redacted>@proxy:3128, https: …, bypass: localhost`.
    public var description: String {
        var parts = [
            "http: \(http.map(String.init(describing:)) ?? "direct")",
            "https: \(https.map(String.init(describing:)) ?? "direct")",
        ]
        if !bypass.isEmpty { parts.append("bypass: " + bypass.map(\.description).joined(separator: ", ")) }
        return parts.joined(separator: ", ")
    }
}

extension ProxySettings {
    /// A user name and password a proxy asks for (HTTP `Basic`, or SOCKS5's
    /// username/password method). The description never shows the password.
    public struct Credentials: Sendable, Hashable, CustomStringConvertible {
        /// The user name.
        public let username: String
        /// The password.
        public let password: String

        /// Creates credentials.
        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }

        /// `username:<redacted>`.
        public var description: String { "\(username):<redacted>" }
    }

    /// A proxy server: its protocol, address and credentials.
    public struct Server: Sendable, Hashable, CustomStringConvertible {
        /// The protocol a proxy speaks.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// An HTTP proxy: absolute-form requests or `CONNECT` tunnels.
            case http
            /// A SOCKS5 proxy (RFC 1928).
            case socks5
        }

        /// The port a proxy URL without one means, as in curl.
        public static let defaultPort = 1080

        /// The protocol.
        public let kind: Kind
        /// The host name or address (IPv6 without brackets), lowercased.
        public let host: String
        /// The port.
        public let port: Int
        /// The credentials sent to the proxy, if it asks for them.
        public let credentials: Credentials?

        /// Creates a server.
        /// - Parameters:
        ///   - kind: the protocol it speaks.
        ///   - host: its host name or address.
        ///   - port: its port, `1...65535`.
        ///   - credentials: what to answer when it asks.
        /// - Throws: ``ProxyConfigurationError`` (``ProxyConfigurationError/Setting/server``)
        ///   for an empty host, one with a space, `/`, `@` or `?` in it, or a port out of range.
        public init(_ kind: Kind, host: String, port: Int, credentials: Credentials? = nil)
            throws(ProxyConfigurationError)
        {
            let name = HostPattern.normalized(host)
            guard !name.isEmpty, !name.contains(where: { $0.isWhitespace || "/@?#%\\".contains($0) }) else {
                throw ProxyConfigurationError(
                    .server, reason: "the proxy's host \"\(host)\" is not a host name or address")
            }
            guard (1...65535).contains(port) else {
                throw ProxyConfigurationError(.server, reason: "the proxy's port \(port) is not in 1...65535")
            }
            self.kind = kind
            self.host = name
            self.port = port
            self.credentials = credentials
        }

        /// Reads a proxy URL as curl does: `http://host:port`, `socks5://user:password@host`
        /// (`socks5h` alike), or `host:port` alone for an HTTP proxy; user name and password
        /// percent-decoded; the port ``defaultPort`` when none is written; a final `/` allowed.
        /// - Throws: ``ProxyConfigurationError`` (``ProxyConfigurationError/Setting/server``)
        ///   for another scheme (an `https` proxy, SOCKS4), a path or query, a bad host or
        ///   port, or a bad percent escape. The error never repeats the password.
        public init(url: String) throws(ProxyConfigurationError) {
            // Unicode scalars, not characters: an `@` or `:` followed by a combining mark is
            // still the separator, so that a password never ends up read as a host or port.
            var rest = Array(url.unicodeScalars.drop { $0.properties.isWhitespace })
            while rest.last?.properties.isWhitespace == true { rest.removeLast() }
            var kind = Kind.http
            if let separator = Self.firstIndex(of: "://", in: rest) {
                let scheme = Self.string(rest[..<separator]).lowercased()
                switch scheme {
                case "http": kind = .http
                case "socks5", "socks5h": kind = .socks5
                default:
                    throw ProxyConfigurationError(
                        .server,
                        reason: "a \(scheme.isEmpty ? "missing" : "`\(scheme)`") proxy scheme is not supported "
                            + "(http, socks5 or socks5h)")
                }
                rest.removeFirst(separator + 3)
            }
            if rest.last == "/" { rest.removeLast() }
            var credentials: Credentials?
            if let at = rest.lastIndex(of: "@") {
                let userInfo = rest[..<at]
                let colon = userInfo.firstIndex(of: ":")
                guard let username = Self.percentDecoded(userInfo[..<(colon ?? at)]),
                    let password = Self.percentDecoded(colon.map { userInfo[($0 + 1)...] } ?? [])
                else {
                    throw ProxyConfigurationError(
                        .credentials, reason: "the proxy URL's user name or password has a bad % escape")
                }
                credentials = Credentials(username: username, password: password)
                rest.removeFirst(at + 1)
            }
            let (host, port) = try Self.hostAndPort(rest[...])
            try self.init(kind, host: host, port: port, credentials: credentials)
        }

        /// `kind://host:port`, with `username:<redacted>@` when there are credentials.
        public var description: String {
            let userInfo = credentials.map { "\($0)@" } ?? ""
            let address = host.contains(":") ? "[\(host)]" : host
            return "\(kind.rawValue)://\(userInfo)\(address):\(port)"
        }

        /// `host:port` as a request names it (IPv6 in brackets), for messages.
        public var endpoint: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

        /// The proxy as errors name it: `HTTP proxy host:port`, `SOCKS5 proxy host:port`.
        package var label: String { "\(kind == .http ? "HTTP" : "SOCKS5") proxy \(endpoint)" }

        /// What a transport throws when the proxy answers `407 Proxy Authentication Required`.
        package func authenticationRequired(underlying: (any Error)? = nil) -> TransportError {
            let refused = credentials.map { "it refused the credentials of user \($0.username)" }
            return TransportError(
                .proxy, underlying: underlying,
                detail: "\(label) answered 407 Proxy Authentication Required: \(refused ?? "it asks for credentials")")
        }

        private static func hostAndPort(_ text: ArraySlice<Unicode.Scalar>) throws(ProxyConfigurationError)
            -> (String, Int)
        {
            var host = text
            var portText: ArraySlice<Unicode.Scalar>?
            if text.first == "[", let close = text.firstIndex(of: "]") {
                host = text[(text.startIndex + 1)..<close]
                let after = text[(close + 1)...]
                if !after.isEmpty {
                    guard after.first == ":" else {
                        throw ProxyConfigurationError(.server, reason: "the proxy URL has text after its address")
                    }
                    portText = after.dropFirst()
                }
            } else if let colon = text.lastIndex(of: ":") {
                host = text[..<colon]
                portText = text[(colon + 1)...]
            }
            guard let portText else { return (string(host), defaultPort) }
            guard portText.count <= 5, let port = Int(string(portText)) else {
                throw ProxyConfigurationError(.server, reason: "the proxy's port is not a number")
            }
            return (string(host), port)
        }

        private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            return String(text)
        }

        private static func firstIndex(of needle: String, in scalars: [Unicode.Scalar]) -> Int? {
            let needle = Array(needle.unicodeScalars)
            guard scalars.count >= needle.count else { return nil }
            return (0...(scalars.count - needle.count)).first {
                scalars[$0..<($0 + needle.count)].elementsEqual(needle)
            }
        }

        /// `text` with `%XX` escapes decoded as UTF-8; `nil` for a bad escape or bytes that
        /// are not UTF-8.
        private static func percentDecoded(_ text: ArraySlice<Unicode.Scalar>) -> String? {
            var bytes: [UInt8] = []
            var iterator = string(text).utf8.makeIterator()
            while let byte = iterator.next() {
                guard byte == UInt8(ascii: "%") else {
                    bytes.append(byte)
                    continue
                }
                guard let high = iterator.next().flatMap(Self.hexValue),
                    let low = iterator.next().flatMap(Self.hexValue)
                else { return nil }
                bytes.append(high << 4 | low)
            }
            return String(validUTF8: bytes)
        }

        private static func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
    }
}
