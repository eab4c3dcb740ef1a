extension ProxySettings {
    /// Hosts that go direct, written as `NO_PROXY` writes them (curl's reading):
    ///
    /// - `*`: every host;
    /// - a host name, with or without a leading `.` or `*.`: that host and every host under
    ///   it (`example.com` and `.example.com` both match `example.com` and
    ///   `api.example.com`, not `notexample.com`);
    /// - an address, IPv4 or IPv6 (with or without brackets): that address;
    /// - an IPv4 range in CIDR notation (`10.0.0.0/8`).
    ///
    /// A port after a host name or address (`localhost:8080`) is not part of the match:
    /// the host goes direct on every port, as with curl.
    public struct Bypass: Sendable, Hashable, CustomStringConvertible {
        private enum Rule: Hashable {
            case everything
            case domain(String)
            case address(String)
            case ipv4Range(network: UInt32, prefixLength: Int)
        }

        private let rule: Rule
        /// The entry as written, trimmed.
        public let description: String

        /// Reads one entry.
        /// - Throws: ``ProxyConfigurationError`` (``ProxyConfigurationError/Setting/bypass``)
        ///   for an entry that is empty, has a scheme, path or space, or a bad CIDR range
        ///   (IPv6 ranges are not read).
        public init(_ entry: String) throws(ProxyConfigurationError) {
            var text = Substring(entry).drop(while: \.isWhitespace)
            while text.last?.isWhitespace == true { text = text.dropLast() }
            description = String(text)
            if text == "*" {
                rule = .everything
                return
            }
            if let slash = text.firstIndex(of: "/") {
                guard let network = Self.ipv4(text[..<slash]), let length = Int(text[text.index(after: slash)...]),
                    (0...32).contains(length)
                else {
                    throw ProxyConfigurationError(
                        .bypass, reason: "\"\(entry)\" is not an IPv4 range (`10.0.0.0/8`)")
                }
                let mask: UInt32 = length == 0 ? 0 : ~0 << (32 - length)
                rule = .ipv4Range(network: network & mask, prefixLength: length)
                return
            }
            var name = Self.withoutPort(text)
            if name.hasPrefix("*.") { name = name.dropFirst(2) } else if name.hasPrefix(".") { name = name.dropFirst() }
            let host = HostPattern.normalized(String(name))
            guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || "/@?#*\\".contains($0) }) else {
                throw ProxyConfigurationError(.bypass, reason: "\"\(entry)\" is not a host name, an address or a range")
            }
            rule = host.contains(":") || Self.ipv4(Substring(host)) != nil ? .address(host) : .domain(host)
        }

        /// Reads a comma-separated list (`NO_PROXY`'s form); empty entries are skipped.
        /// - Throws: ``ProxyConfigurationError`` for the first entry that cannot be read.
        public static func list(_ text: String) throws(ProxyConfigurationError) -> [Bypass] {
            var entries: [Bypass] = []
            for entry in text.split(separator: ",") where !entry.allSatisfy(\.isWhitespace) {
                entries.append(try Bypass(String(entry)))
            }
            return entries
        }

        /// Whether requests to `host` (a name or an address, IPv6 with or without
        /// brackets) go direct.
        public func matches(host: String) -> Bool { matches(normalized: HostPattern.normalized(host)) }

        func matches(normalized host: String) -> Bool {
            switch rule {
            case .everything: return true
            case .domain(let name): return host == name || host.hasSuffix("." + name)
            case .address(let address): return host == address
            case .ipv4Range(let network, let length):
                guard let address = Self.ipv4(Substring(host)) else { return false }
                let mask: UInt32 = length == 0 ? 0 : ~0 << (32 - length)
                return address & mask == network
            }
        }

        /// The entry as wildcard host patterns (the form of CFNetwork's `ExceptionsList`):
        /// `*`; a domain and `*.` before it; an address; an IPv4 range as `a.b.c.d/n`.
        package var hostPatterns: [String] {
            switch rule {
            case .everything: ["*"]
            case .domain(let name): [name, "*." + name]
            case .address(let address): [address]
            case .ipv4Range(let network, let length):
                [(0..<4).map { String(network >> (24 - 8 * $0) & 0xff) }.joined(separator: ".") + "/\(length)"]
            }
        }

        /// `text` without a `:port` after a name or an IPv4 address, or after a bracketed
        /// IPv6 address (an IPv6 address without brackets is kept whole).
        private static func withoutPort(_ text: Substring) -> Substring {
            if text.hasPrefix("["), let close = text.firstIndex(of: "]") { return text[...close] }
            let colons = text.filter { $0 == ":" }.count
            guard colons == 1, let colon = text.firstIndex(of: ":"),
                text[text.index(after: colon)...].allSatisfy(\.isNumber)
            else { return text }
            return text[..<colon]
        }

        /// A dotted-quad IPv4 address as a number; `nil` for anything else.
        private static func ipv4(_ text: Substring) -> UInt32? {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4 else { return nil }
            var value: UInt32 = 0
            for part in parts {
                guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                    let byte = UInt8(part)
                else { return nil }
                value = value << 8 | UInt32(byte)
            }
            return value
        }
    }
}
