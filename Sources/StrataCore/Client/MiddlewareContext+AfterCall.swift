extension MiddlewareContext {
    /// Leaves work for after the call (a background revalidation, say): once the call
    /// ends, its ``Networker`` runs `work` in a task of its own, handing it the client to
    /// send requests through, unless work with the same `id` is under way there. The work
    /// outlives the call, not the client: see ``Networker/background``. Bound its own
    /// time; without a ``Networker`` (a context made with
    /// ``init(attempt:deadline:attemptTimeout:attributes:logger:options:)``) it is never run.
    public func afterCall(id: some Hashable & Sendable, _ work: @escaping @Sendable (Networker) async -> Void) {
        let followUp = FollowUp(id: BackgroundWork.ID(id), work: work)
        call.update { state in
            var followUps = state.clientValues[FollowUp.Key.self] ?? []
            followUps.append(followUp)
            state.clientValues[FollowUp.Key.self] = followUps
        }
    }
}

/// Work a step left for after its call (see ``MiddlewareContext/afterCall(id:_:)``).
struct FollowUp: Sendable {
    /// Where a call keeps the work its steps left (``CallState/clientValues``).
    enum Key: CallValueKey {
        typealias Value = [FollowUp]
    }

    let id: BackgroundWork.ID
    let work: @Sendable (Networker) async -> Void
}
