import Foundation
import Strata

/// A recording a test uses in one line: replayed from `file` when it is there, recorded
/// through a real transport (and written there) when it is not, and completed with what
/// is missing.
///
/// ```swift
/// let user = try await HARFixture.with(fixtures.appendingPathComponent("user.har"), recordingOver: transport) {
///     try await Networker(transport: $0).send(userEndpoint)
/// }
/// ```
public enum HARFixture {
    /// Runs `body` with a transport that answers from the recording at `file`; requests
    /// it has no answer for (all of them, the first time) go through `transport` and are
    /// added to the file when `body` returns.
    public static func with<Result>(
        _ file: URL,
        recordingOver transport: any Transport,
        matching: HARReplayTransport.Matching = HARReplayTransport.Matching(),
        _ body: (any Transport) async throws -> Result
    ) async throws -> Result {
        let recorded = FileManager.default.fileExists(atPath: file.path) ? try HAR(contentsOf: file) : HAR()
        let recorder = HARRecorder()
        let replay = HARReplayTransport(
            recorded, matching: matching, mode: .recordMissing(over: transport, into: recorder))
        let result = try await body(replay)
        let added = recorder.har.log.entries
        if !added.isEmpty {
            try HAR(entries: recorded.log.entries + added).encoded().write(to: file, options: .atomic)
        }
        return result
    }
}
