import Strata

/// The resilience steps: a flaky server retried until it answers, and an expired token
/// renewed once and the request sent again.
enum ResilienceSteps {
    static let all: [TourStep] = [
        TourStep(id: .flaky, section: .resilience, feature: "RetryMiddleware") { session in
            let response = try await session.networker.response(for: session.api.flaky())
            let attempts = response.retry?.attempts ?? 1
            // A fresh server fails its first two calls; a later tour against it finds it recovered.
            let call = response.value["attempt"]?.intValue ?? 0
            try check(call >= attempts, "the server counted \(call) calls, fewer than the \(attempts) attempts")
            let retried = attempts == 1 ? "no retry needed" : "after \(attempts - 1) × 503, retried with backoff"
            return StepOutcome(
                summary: "200 on attempt \(attempts) (\(retried)); server call \(call)", value: response.value)
        },
        TourStep(id: .tokenRefresh, section: .resilience, feature: "AuthenticationMiddleware") { session in
            let signIns = SignInCounter()
            // A token the server no longer accepts, as an app finds one in its keychain.
            let provider = BearerTokenProvider(BearerToken("demo-expired")) { _ in
                await signIns.count()
                return BearerToken(try await session.networker.send(session.api.login(.demo)).token)
            }
            let networker = session.authenticatedNetworker(AuthenticationMiddleware(provider))
            let user = try await networker.send(session.api.me())
            let refreshes = await signIns.total
            try check(refreshes == 1, "\(refreshes) refreshes, not 1")
            return StepOutcome(
                summary: "401 for an expired token → 1 refresh (signed in again) → \(user.summary)", value: user)
        },
    ]
}

/// Counts the sign-ins the token refresh makes.
actor SignInCounter {
    private(set) var total = 0

    func count() { total += 1 }
}
