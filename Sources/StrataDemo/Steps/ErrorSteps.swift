import Strata

/// Failures the tour provokes on purpose, each checked to be the right `StrataError`.
enum ErrorSteps {
    static let all: [TourStep] = [
        TourStep(id: .notFound, section: .errors, feature: "error.status") { session in
            let error = try await session.expectFailure(session.api.user(id: 99), "a 404") {
                $0.unacceptableStatusCode == 404
            }
            return StepOutcome(summary: "expected failure: \(error.kindSummary)", value: error)
        },
        TourStep(id: .malformedBody, section: .errors, feature: "malformed body") { session in
            let error = try await session.expectFailure(session.api.broken(), "a decoding error") {
                $0.isDecodingFailure
            }
            return StepOutcome(summary: "expected failure: \(error.kindSummary)", value: error)
        },
        TourStep(id: .flaky, section: .errors, feature: "retries: future work") { session in
            do throws(StrataError) {
                let body = try await session.networker.send(session.api.flaky())
                // The server has already failed its two calls (an earlier tour against it).
                return StepOutcome(summary: "already recovered: attempt \(body["attempt"]?.intValue ?? 0)", value: body)
            } catch {
                try check(error.unacceptableStatusCode == 503, "expected a 503, got \(error)")
                return StepOutcome(summary: "expected failure: \(error.kindSummary)", value: error)
            }
        },
    ]
}
