import Strata

/// The resilience steps: a flaky server retried until it answers.
enum ResilienceSteps {
    static let all: [TourStep] = [
        TourStep(id: .flaky, section: .resilience, feature: "RetryMiddleware") { session in
            let response = try await session.networker.response(for: session.api.flaky())
            let attempts = response.retry?.attempts ?? 1
            // A fresh server fails its first two calls; a later tour against it finds it recovered.
            let call = response.value["attempt"]?.intValue ?? 0
            try check(call >= attempts, "the server counted \(call) calls, fewer than the \(attempts) attempts")
            let retried = attempts == 1 ? "no retry needed" : "after \(attempts - 1) × 503, retried with backoff"
            return StepOutcome(summary: "200 on attempt \(attempts) (\(retried)); server call \(call)", value: response.value)
        },
    ]
}
