/// One step of the tour: what it is called, what it shows and what it does.
struct TourStep: Sendable {
    /// Which step.
    let id: TourStepID
    /// The part of the tour it belongs to.
    let section: TourSection
    /// The Strata feature it shows, printed at the end of its line.
    let feature: String
    /// Sends the step's request(s) and checks the outcome; throws when the step did not
    /// behave as expected.
    let run: @Sendable (TourSession) async throws -> StepOutcome
}

/// What a step produced when it behaved as expected.
struct StepOutcome: Sendable {
    /// The model, or the expected failure, in a few words.
    var summary: String
    /// The decoded model or the expected error.
    var value: any Sendable
}
