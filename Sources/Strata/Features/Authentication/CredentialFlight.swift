/// A credential handed to a request, with what the request needs to know later about
/// how new it was.
package struct IssuedCredential<Credential: Sendable>: Sendable {
    /// The credential.
    package let credential: Credential
    /// 1 for the first credential, one more for each refresh since.
    package let generation: Int
    /// How many loads and refreshes had started when the request got the credential: a
    /// refresh started after that was for this request's credential too.
    let flightsSeen: Int
}

/// One load or refresh of the credential, which any number of requests wait for.
///
/// Each waiter stops waiting as soon as its own task is cancelled; the others, and the
/// refresh itself, carry on.
package final class CredentialFlight<Credential: Sendable>: Sendable {
    /// The new credential, or the provider's error.
    typealias Outcome = Result<IssuedCredential<Credential>, any Error>

    private struct State {
        var outcome: Outcome?
        var waiters: [Int: CheckedContinuation<Outcome, any Error>] = [:]
        /// Waiters cancelled before they started waiting.
        var cancelledEarly: Set<Int> = []
        var nextWaiter = 0
    }

    private let state = Locked(State())
    /// The flight's number among every load and refresh of its store, from 1.
    let number: Int

    /// Creates the flight numbered `number`.
    init(number: Int) {
        self.number = number
    }

    /// Records the outcome and wakes every waiter with it.
    func finish(_ outcome: Outcome) {
        let waiters = state.withLock { state in
            state.outcome = outcome
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// Waits for the outcome.
    /// - Throws: `CancellationError` as soon as the calling task is cancelled.
    func outcome() async throws -> Outcome {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<Outcome, any Error>? in
                    if state.cancelledEarly.remove(id) != nil { return .failure(CancellationError()) }
                    if let outcome = state.outcome { return .success(outcome) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                let waiter = state.waiters.removeValue(forKey: id)
                if waiter == nil, state.outcome == nil { state.cancelledEarly.insert(id) }
                return waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
