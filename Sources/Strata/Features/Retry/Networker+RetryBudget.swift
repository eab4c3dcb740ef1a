import HTTPTypes

extension Networker {
    /// The client's ``RetryMiddleware``, among its own steps or its configuration's.
    var retryStep: RetryMiddleware? { installedStep(RetryMiddleware.self) }

    /// The retry budget of the client's ``RetryMiddleware``, when it has one: what other
    /// features that retry on their own (an event stream's reconnections) spend too.
    var retryBudget: RetryBudget? { retryStep?.budget }
}

extension RetryMiddleware {
    /// How long to wait before a feature that can continue where a body stopped (a
    /// download) asks for the rest, or `nil` when it should not: the body failed with one
    /// of the policy's ``RetryPolicy/failures`` (which, for a body, can always be resumed
    /// rather than resent), the method or the endpoint's `rule` allows a retry, the
    /// continuations so far (`continued`) leave an attempt under the policy's limit, and
    /// the budget has a retry left (withdrawn here).
    func waitToContinue(
        after error: StrataError, method: HTTPRequest.Method, rule: RetryRule?, continued: Int
    ) -> Duration? {
        let methodAllowed =
            switch rule {
            case .withIdempotencyKey: true
            default: policy.methods.contains(method)
            }
        guard error.phase == .readingBody, methodAllowed else { return nil }
        return waitToResume(after: error, rule: rule, continued: continued)
    }

    /// How long to wait before a feature that continues where the server's bytes end (a
    /// resumable upload, whose offset makes its requests safe to send again whatever their
    /// method) tries again, or `nil` when it should not: the exchange failed, at any phase,
    /// with one of the policy's ``RetryPolicy/failures``, the endpoint's `rule` is not
    /// ``RetryRule/never``, the continuations so far (`continued`) leave an attempt under
    /// the policy's limit, and the budget has a retry left (withdrawn here).
    func waitToResume(after error: StrataError, rule: RetryRule?, continued: Int) -> Duration? {
        guard error.kind == .transport, let failure = error.underlying as? TransportError,
            policy.failures.contains(failure.kind), continued + 1 < policy.maxAttempts
        else { return nil }
        if case .never = rule { return nil }
        guard budget?.withdraw() ?? true else { return nil }
        return policy.backoff(after: continued + 1)
    }

    /// Waits `wait` before a feature that continues on its own (a download, a resumable
    /// upload) tries again; a cancellation ends the wait as the call's cancellation.
    static func backOff(_ wait: Duration) async throws(StrataError) {
        do {
            try await Deadline.sleep(for: wait)
        } catch {
            throw StrataError(.cancelled)
        }
    }
}
