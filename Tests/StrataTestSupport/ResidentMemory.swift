import Testing

/// The resident set of the test process, which Strata's memory bounds measure.
///
/// Strata's tests read it from `/proc/self/status` (``PeakRSSSampler``; `VmHWM` in the
/// integration tests' `ProcessMemory`), which only Linux has. Elsewhere every growth they
/// report is zero, and a bound checked against it would pass having measured nothing:
/// ``expect(growth:below:_:sourceLocation:)`` says so instead.
package enum ResidentMemory {
    /// Whether this process can read its resident set: where `/proc/self/status` has it.
    package static let isMeasurable = PeakRSSSampler.residentBytes() != nil

    /// Why a memory bound goes unchecked where the resident set is not measurable.
    package static let unmeasurable: Comment = "reads the resident set from /proc/self/status: Linux only"

    /// Expects `growth`, a growth of the resident set in bytes, below `bound`, as
    /// `#expect(growth < bound)` does, where the resident set is measurable; elsewhere
    /// records a known issue saying that the bound went unchecked.
    package static func expect(
        growth: Int, below bound: Int, _ comment: @autoclosure () -> Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard isMeasurable else {
            withKnownIssue(unmeasurable, sourceLocation: sourceLocation) {
                Issue.record(
                    "not measured: the growth of the resident set must stay below \(bound >> 20) MiB",
                    sourceLocation: sourceLocation)
            }
            return
        }
        #expect(growth < bound, comment(), sourceLocation: sourceLocation)
    }
}
