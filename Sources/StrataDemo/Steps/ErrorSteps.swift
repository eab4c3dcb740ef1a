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
    ]
}
