/// Whom a client trusts over TLS: a ``TrustPolicy`` per host pattern, and a default for
/// every other host.
///
/// Hosts are matched as OkHttp's certificate pinner matches them: `api.example.com` that
/// host only; `*.example.com` one label more (`api.example.com`, not `example.com` nor
/// `a.b.example.com`); `**.example.com` any number of labels more, none included. The most
/// specific pattern wins: an exact host, then the longest suffix, `*.` before `**.`.
///
/// ```swift
/// let trust = try ServerTrust(hosts: [
///     "api.example.com": TrustPolicy(pins: [primaryPin, backupPin]),
///     "**.internal.example.com": TrustPolicy(roots: .only(companyRoots)),
/// ])
/// let transport = try AsyncHTTPClientTransport(trust: trust)
/// ```
public struct ServerTrust: Sendable, Hashable {
    /// A policy and the hosts it applies to.
    public struct Entry: Sendable, Hashable {
        /// The hosts the policy applies to; `nil` for the default policy.
        public let pattern: HostPattern?
        /// The policy.
        public let policy: TrustPolicy
    }

    /// The policy of hosts no pattern matches.
    public let defaultPolicy: TrustPolicy
    /// The host patterns' policies, the most specific first.
    public let hostPolicies: [Entry]

    /// Creates the trust of a client with a policy per host pattern.
    /// - Parameters:
    ///   - hosts: a policy per host pattern (see the type's documentation).
    ///   - defaultPolicy: the policy of hosts no pattern matches; the system's by default.
    /// - Throws: ``TrustConfigurationError`` with setting ``TrustConfigurationError/Setting/hostPattern``
    ///   for a pattern that is not a host name, an address or a wildcard pattern, or two
    ///   patterns that are the same host.
    public init(hosts: [String: TrustPolicy], default defaultPolicy: TrustPolicy = .system)
        throws(TrustConfigurationError)
    {
        var entries: [Entry] = []
        for (text, policy) in hosts.sorted(by: { $0.key < $1.key }) {  // the same error every run
            let pattern = try HostPattern(text)
            guard !entries.contains(where: { $0.pattern == pattern }) else {
                throw TrustConfigurationError(.hostPattern, host: text, reason: "the pattern is given twice")
            }
            entries.append(Entry(pattern: pattern, policy: policy))
        }
        self.defaultPolicy = defaultPolicy
        self.hostPolicies = entries.sorted { $0.pattern!.isMoreSpecific(than: $1.pattern!) }
    }

    /// One policy for every host.
    /// - Parameter defaultPolicy: the policy of every host.
    public init(default defaultPolicy: TrustPolicy) {
        self.defaultPolicy = defaultPolicy
        self.hostPolicies = []
    }

    /// The system's trust for every host.
    public static let system = ServerTrust(default: .system)

    /// Whether every host gets the system's default trust.
    public var isSystemDefault: Bool {
        defaultPolicy.isSystemDefault && hostPolicies.allSatisfy(\.policy.isSystemDefault)
    }

    /// Every policy: the hosts' first, most specific first, then the default.
    public var entries: [Entry] { hostPolicies + [Entry(pattern: nil, policy: defaultPolicy)] }

    /// The policy for `host` (a name or an address, with or without brackets or a final dot).
    public func policy(forHost host: String) -> TrustPolicy {
        entry(forHost: host).policy
    }

    /// The entry whose policy applies to the host of `authority` (`host`, `host:port`,
    /// `[v6]:port`), as a request's authority is written.
    public func entry(forAuthority authority: String) -> Entry {
        entry(forHost: HostPattern.host(ofAuthority: authority))
    }

    /// The entry whose policy applies to `host`.
    public func entry(forHost host: String) -> Entry {
        let name = HostPattern.normalized(host)
        return hostPolicies.first { $0.pattern!.matches(normalized: name) }
            ?? Entry(pattern: nil, policy: defaultPolicy)
    }
}

/// A host name, an address, or a wildcard pattern of host names; see ``ServerTrust``.
public struct HostPattern: Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Hashable {
        case exact
        case oneLabel  // `*.suffix`
        case anyLabels  // `**.suffix`
    }

    private let kind: Kind
    /// The host, or the suffix after the wildcard's dot, lowercased.
    private let name: String

    /// Reads a pattern: `host`, `*.suffix` or `**.suffix`.
    /// - Throws: ``TrustConfigurationError`` with setting ``TrustConfigurationError/Setting/hostPattern``
    ///   when the pattern is empty, has a scheme, port, path or space, or a `*` anywhere but
    ///   a leading `*.` or `**.` label.
    public init(_ text: String) throws(TrustConfigurationError) {
        let lowered = Self.normalized(text)
        let (kind, name): (Kind, Substring) =
            if lowered.hasPrefix("**.") {
                (.anyLabels, lowered.dropFirst(3))
            } else if lowered.hasPrefix("*.") {
                (.oneLabel, lowered.dropFirst(2))
            } else {
                (.exact, Substring(lowered))
            }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        let isAddress = kind == .exact && name.filter { $0 == ":" }.count >= 2  // IPv6, brackets removed
        guard !name.isEmpty,
            isAddress ? name.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) : labels.allSatisfy(Self.isLabel)
        else {
            throw TrustConfigurationError(
                .hostPattern, host: text,
                reason: "not a host name, an address, or `*.` or `**.` and a host name")
        }
        self.kind = kind
        self.name = String(name)
    }

    /// Whether `host` is one of the hosts the pattern names.
    public func matches(_ host: String) -> Bool { matches(normalized: Self.normalized(host)) }

    fileprivate func matches(normalized host: String) -> Bool {
        switch kind {
        case .exact: return host == name
        case .oneLabel, .anyLabels:
            guard host.hasSuffix("." + name) else { return kind == .anyLabels && host == name }
            return kind == .anyLabels || !host.dropLast(name.count + 1).contains(".")
        }
    }

    /// Whether this pattern is tried before `other`: exact hosts first, then longer suffixes,
    /// `*.` before `**.`, then by text, so that the order never depends on a dictionary's.
    fileprivate func isMoreSpecific(than other: HostPattern) -> Bool {
        let rank: (Kind) -> Int = { [.exact: 0, .oneLabel: 1, .anyLabels: 2][$0]! }
        if (kind == .exact) != (other.kind == .exact) { return kind == .exact }
        if name.count != other.name.count { return name.count > other.name.count }
        if kind != other.kind { return rank(kind) < rank(other.kind) }
        return name < other.name
    }

    /// The pattern as written, lowercased.
    public var description: String {
        switch kind {
        case .exact: name
        case .oneLabel: "*." + name
        case .anyLabels: "**." + name
        }
    }

    /// The host of an authority: what comes before a port, brackets kept for
    /// ``normalized(_:)`` to remove.
    static func host(ofAuthority authority: String) -> String {
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        if hostAndPort.hasPrefix("["), let close = hostAndPort.firstIndex(of: "]") {
            return String(hostAndPort[...close])
        }
        return String(hostAndPort.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// `host` lowercased, without IPv6 brackets or a final dot.
    package static func normalized(_ host: String) -> String {
        var host = Substring(host.lowercased())
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        if host.hasSuffix(".") { host = host.dropLast() }
        return String(host)
    }

    private static func isLabel(_ label: Substring) -> Bool {
        !label.isEmpty && label.count <= 63
            && label.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "_" }
    }
}
