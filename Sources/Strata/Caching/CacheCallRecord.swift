/// What a ``CacheMiddleware`` leaves for the ``Networker`` about one call: where the
/// answer came from, and the background revalidation the call owes (a stale response
/// served within `stale-while-revalidate`). One record per call, so that a client with a
/// cache pays one allocation for both.
struct CacheCall: Sendable {
    /// Where the answer came from and how old it is.
    var outcome: CacheOutcome?
    /// The revalidation to start once the exchange ends.
    var revalidation: DueRevalidation?
}

extension CallRecord where Value == CacheCall {
    /// Records where the answer came from, keeping an owed revalidation.
    func record(_ outcome: CacheOutcome) {
        update { $0 = CacheCall(outcome: outcome, revalidation: $0?.revalidation) }
    }

    /// Records the revalidation the call owes, keeping the outcome.
    func owe(_ revalidation: DueRevalidation) {
        update { $0 = CacheCall(outcome: $0?.outcome, revalidation: revalidation) }
    }

    /// Where the answer came from, if the cache said.
    var outcome: CacheOutcome? { value?.outcome }
}
