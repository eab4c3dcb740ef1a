import Foundation
import Strata

// The feature's own streamed read: a tagged call whose body is a feed of lines, handed over
// as they arrive. The reads are the call's: its deadline bounds them, and whatever ends them
// (the deadline, a cancelled task, a lost connection) reaches the feature as the
// `StrataError` the call decided — kind, phase "reading the body", the request and the
// response head — the same error Strata's own downloads and event streams get. The feature
// classifies nothing; it passes that error on.

extension Networker {
    /// Sends `endpoint`, tagged `tag`, calls `line` with each line of its body (without the
    /// line break) as it arrives, and returns the response head once the body ended; a last
    /// line without a break is handed over at the end.
    /// - Throws: ``StrataError``: the call's failure, or how the body's read ended (a
    ///   ``StrataError/Kind/transport`` failure whose ``TransportError`` is
    ///   ``TransportError/Kind/timedOut`` at the deadline, ``StrataError/Kind/cancelled`` when
    ///   the reading task is cancelled), with the phase "reading the body".
    public func tagLines<Response>(
        _ endpoint: Endpoint<Response>, tag: String, line: (String) -> Void
    ) async throws -> HTTPResponse {
        let (head, body) = try await stream(endpoint.tag(tag))
        var pending = Data()
        for try await chunk in body {
            pending.append(chunk)
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                line(String(decoding: pending[pending.startIndex..<end], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...end)
            }
        }
        if !pending.isEmpty { line(String(decoding: pending, as: UTF8.self)) }
        return head
    }
}
