#if WebSocket
    import HTTPTypes
    import Strata

    /// Where a WebSocket handshake goes, read from its request: host, port, whether TLS,
    /// the request target and the `Host` field. `ws`/`http` and `wss`/`https` are accepted.
    struct WebSocketTarget: Equatable {
        let host: String
        let port: Int
        let usesTLS: Bool
        /// The path and query, `/` when empty.
        let requestTarget: String

        /// The `Host` field: the host, and the port when it is not the scheme's default.
        var hostField: String {
            let shown = host.contains(":") ? "[\(host)]" : host
            return port == (usesTLS ? 443 : 80) ? shown : "\(shown):\(port)"
        }

        /// The target of `request`, or a ``TransportError`` of kind
        /// ``TransportError/Kind/invalidRequest`` saying what is wrong.
        init(_ request: HTTPRequest) throws(TransportError) {
            let usesTLS: Bool
            switch request.scheme?.lowercased() {
            case "ws", "http": usesTLS = false
            case "wss", "https": usesTLS = true
            default:
                throw TransportError(
                    .invalidRequest,
                    detail: "a WebSocket needs a ws, wss, http or https URL, not \(request.scheme ?? "none")")
            }
            guard let authority = request.authority, !authority.isEmpty else {
                throw TransportError(.invalidRequest, detail: "a WebSocket URL needs a host")
            }
            let (host, port) = try Self.split(authority)
            self.host = host
            self.port = port ?? (usesTLS ? 443 : 80)
            self.usesTLS = usesTLS
            let path = request.path ?? ""
            guard path.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
                throw TransportError(
                    .invalidRequest, detail: "a request target must be visible ASCII (percent-encode the rest)")
            }
            self.requestTarget = path.isEmpty ? "/" : path
        }

        /// `host[:port]` or `[v6][:port]`, without user information.
        private static func split(_ authority: String) throws(TransportError) -> (String, Int?) {
            let hostPort = authority.split(separator: "@", omittingEmptySubsequences: false).last.map(String.init) ?? ""
            let host: Substring
            var portText: Substring?
            if hostPort.hasPrefix("[") {
                guard let close = hostPort.firstIndex(of: "]") else {
                    throw TransportError(.invalidRequest, detail: "unterminated IPv6 host in \(authority)")
                }
                host = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
                let rest = hostPort[hostPort.index(after: close)...]
                if rest.hasPrefix(":") {
                    portText = rest.dropFirst()
                } else if !rest.isEmpty {
                    throw TransportError(.invalidRequest, detail: "unexpected \(rest) after the host in \(authority)")
                }
            } else if let colon = hostPort.lastIndex(of: ":") {
                host = hostPort[..<colon]
                portText = hostPort[hostPort.index(after: colon)...]
            } else {
                host = Substring(hostPort)
            }
            guard !host.isEmpty else { throw TransportError(.invalidRequest, detail: "a WebSocket URL needs a host") }
            guard let portText else { return (String(host), nil) }
            guard let port = Int(portText), (1...65535).contains(port) else {
                throw TransportError(.invalidRequest, detail: "invalid port \(portText) in \(authority)")
            }
            return (String(host), port)
        }
    }
#endif
