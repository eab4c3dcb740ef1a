/// A change of a host's circuit breaker that a call caused or saw (see
/// ``EndpointResponse/circuitTransitions``).
public struct CircuitTransition: Sendable, Hashable {
    /// The host's authority, `api.example.com:8443`.
    public let host: String
    /// The state the breaker moved to: `open`, `half-open` or `closed`.
    public let state: String
}

/// The breaker transitions of a call.
package enum CircuitTransitionsKey: CallValueKey {
    package typealias Value = [CircuitTransition]
}

extension EndpointResponse {
    /// The breaker changes this call caused (or, for a probe's admission, saw), in order;
    /// `nil` when there were none.
    public var circuitTransitions: [CircuitTransition]? { records[CircuitTransitionsKey.self] }
}

extension StrataError {
    /// The breaker changes this call caused, in order (the failure that opened it); `nil`
    /// when there were none.
    public var circuitTransitions: [CircuitTransition]? { records[CircuitTransitionsKey.self] }
}

extension FinishedCall {
    /// The breaker changes the call caused, in order; `nil` when there were none.
    public var circuitTransitions: [CircuitTransition]? { records[CircuitTransitionsKey.self] }
}
