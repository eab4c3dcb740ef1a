/// The results of a whole tour.
public struct TourReport: Sendable {
    /// Every step's result, in order.
    public let results: [TourStepResult]

    /// Creates a report.
    public init(results: [TourStepResult]) {
        self.results = results
    }

    /// Whether every step behaved as expected.
    public var allPassed: Bool { results.allSatisfy(\.passed) }

    /// The steps that did not.
    public var failures: [TourStepResult] { results.filter { !$0.passed } }

    /// The result of `step`, or `nil` when it did not run.
    public subscript(step: TourStepID) -> TourStepResult? {
        results.first { $0.step == step }
    }
}
