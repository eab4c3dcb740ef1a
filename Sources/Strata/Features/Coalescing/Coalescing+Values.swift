// The coalescing feature's per-call values and records, under its own keys.

/// Whether the endpoint asks for its call to be coalesced.
enum CoalescesKey: CallValueKey {
    typealias Value = Bool
}

/// Where ``CoalescingMiddleware`` leaves a call's ``Coalescing``.
enum CoalescingRecordKey: CallValueKey {
    typealias Value = Coalescing
}

/// What ``CoalescingMiddleware`` did with a call it could coalesce.
public enum Coalescing: String, Sendable, Hashable, CustomStringConvertible {
    /// The call's request went to the transport, and calls that joined it got its response.
    case sent
    /// The call joined an identical request already in flight and got its response (or its
    /// failure): its own request never reached the transport.
    case joined

    /// `sent` or `joined`.
    public var description: String { rawValue }
}

extension Endpoint {
    /// Whether a client's ``CoalescingMiddleware`` may let this call share an identical
    /// request in flight: `true` asks for it (also from a step made with
    /// `onlyWhenAsked: true`), `false` keeps the call to itself; `nil` follows the step.
    public var coalesces: Bool? {
        get { options[CoalescesKey.self] }
        set { options[CoalescesKey.self] = newValue }
    }

    /// Whether a client's ``CoalescingMiddleware`` may let this call share an identical
    /// request in flight (``coalesces``).
    public func coalesces(_ coalesces: Bool) -> Endpoint {
        option(CoalescesKey.self, coalesces)
    }
}

extension MiddlewareContext {
    /// The endpoint's ``Endpoint/coalesces``, for ``CoalescingMiddleware``.
    public var coalesces: Bool? {
        get { options[CoalescesKey.self] }
        set { options[CoalescesKey.self] = newValue }
    }
}

extension EndpointResponse {
    /// Whether the call sent its request or joined an identical one in flight, when the
    /// client's ``CoalescingMiddleware`` could coalesce it.
    public var coalescing: Coalescing? { records[CoalescingRecordKey.self] }
}

extension StrataError {
    /// Whether the failed call sent its request or joined an identical one in flight (and
    /// got its failure), when the client's ``CoalescingMiddleware`` could coalesce it.
    public var coalescing: Coalescing? { records[CoalescingRecordKey.self] }
}

extension FinishedCall {
    /// Whether the call sent its request or joined an identical one in flight, when the
    /// client's ``CoalescingMiddleware`` could coalesce it.
    public var coalescing: Coalescing? { records[CoalescingRecordKey.self] }
}
