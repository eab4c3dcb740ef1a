import Strata

/// What one step of the tour did: the exchange on the wire, how long it took, what
/// came back, and whether that was what the step expected.
public struct TourStepResult: Sendable {
    /// Which step.
    public let step: TourStepID
    /// The part of the tour it belongs to.
    public let section: TourSection
    /// The Strata feature the step shows, such as `.urlQuery`.
    public let feature: String
    /// Whether the step behaved as expected (an expected failure counts as passed, and so
    /// does a step skipped because the transport cannot take part in it).
    public let passed: Bool
    /// Whether the step did not run: the server did not answer an earlier one (failed), or
    /// the transport cannot take part in it (passed).
    public let skipped: Bool
    /// The last request the step sent and the status it got, when it got that far.
    public let exchange: RecordedExchange?
    /// How long the step took, encoding and decoding included.
    public let duration: Duration
    /// The decoded model, or the failure, in a few words.
    public let summary: String
    /// The decoded model (``User``, ``AuthToken``…) or the expected `StrataError`;
    /// `nil` when the step failed.
    public let value: (any Sendable)?
    /// The unexpected error a failed step ended with, when it was a `StrataError`.
    public let error: StrataError?

    /// Whether the step failed because no response arrived.
    var failedInTransport: Bool {
        !passed && error?.kind == .transport
    }
}
