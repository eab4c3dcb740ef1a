/// Why a call was not sent: the host's circuit breaker is open; the
/// ``StrataError/underlying`` of a ``StrataError/Kind/circuitOpen`` failure.
public struct CircuitOpenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host whose breaker is open, as `host:port` (the request's authority).
    public let host: String
    /// How long until the breaker lets a probe through; `.zero` while a probe is in flight.
    public let retryAfter: Duration
    /// Whether a probe is in flight (the breaker is half-open), so this call was not the probe.
    public let isProbing: Bool

    /// Creates the error.
    public init(host: String, retryAfter: Duration, isProbing: Bool) {
        self.host = host
        self.retryAfter = retryAfter
        self.isProbing = isProbing
    }

    /// `circuit open for api.test:443 (a probe in 1.5 seconds)`
    public var description: String {
        let when = isProbing ? "a probe is in flight" : "a probe in \(retryAfter)"
        return "circuit open for \(host) (\(when))"
    }
}

extension StrataError.Kind {
    /// The call was not sent: the host's circuit breaker is open; see
    /// ``CircuitBreakerMiddleware`` and ``CircuitOpenError``.
    public static let circuitOpen = StrataError.Kind("circuitOpen") { error in
        error.underlying.map { String(describing: $0) } ?? "circuit open"
    }
}
