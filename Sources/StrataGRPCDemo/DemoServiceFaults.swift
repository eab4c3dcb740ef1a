import GRPCCore
import Strata

/// What the demo's `GetUser` does wrong on request, for the tour's resilience steps:
/// - `x-demo-flaky: KEY` — the first two calls with each key fail with `unavailable`;
/// - `authorization: Bearer expired` — `unauthenticated` (any other bearer token is
///   accepted, and a call without one is public).
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class DemoServiceFaults: Sendable {
    /// The calls made with each `x-demo-flaky` key.
    private let calls = Locked<[String: Int]>([:])

    /// Throws the fault `metadata` asks for, if any.
    func check(_ metadata: Metadata) throws {
        if metadata[stringValues: "authorization"].contains("Bearer expired") {
            throw RPCError(code: .unauthenticated, message: "the token has expired")
        }
        guard let key = metadata[stringValues: "x-demo-flaky"].first(where: { _ in true }) else { return }
        let call = calls.withLock { calls in
            calls[key, default: 0] += 1
            return calls[key, default: 0]
        }
        if call <= 2 {
            throw RPCError(code: .unavailable, message: "temporarily unavailable (call \(call) of 2 that fail)")
        }
    }
}
