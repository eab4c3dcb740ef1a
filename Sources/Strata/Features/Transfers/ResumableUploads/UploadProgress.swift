import Foundation

/// A resumable upload's progress: the bytes the server acknowledged plus those handed to
/// the transport since, never going back (a request sent again from a lower offset
/// reports nothing until it passes what was reported), and how far the bytes handed over
/// reached (what the server can hold at most).
struct UploadProgress: Sendable {
    private struct State {
        var reporter: ProgressReporter
        /// Where the body being sent has reached in the file.
        var position: Int64 = 0
        /// The furthest any body reached, or the server acknowledged.
        var sent: Int64 = 0
        /// The most reported.
        var reported: Int64 = 0
        /// When the transport last took a chunk of a body, or a body was made.
        var lastRead = ContinuousClock.now
    }

    private let state: Locked<State>
    private let total: Int64

    init(total: Int64, handler: (@Sendable (TransferProgress) -> Void)?) {
        self.total = total
        var reporter = ProgressReporter(total: total, handler: handler)
        reporter.reportStart()
        state = Locked(State(reporter: reporter))
    }

    /// The furthest the bytes handed to the transport reached.
    var sent: Int64 { state.withLock { $0.sent } }

    /// When the transport last took a chunk of the body being sent (or the body was made).
    var lastRead: ContinuousClock.Instant { state.withLock { $0.lastRead } }

    /// The server holds `offset` bytes.
    func acknowledged(_ offset: Int64) {
        state.withLock { state in
            state.sent = max(state.sent, offset)
            Self.advance(&state, to: offset)
        }
    }

    /// The source from `offset` to its end as a request body, counting its bytes as the
    /// transport reads them; the body to send from now on.
    func body(of source: UploadSource, from offset: Int64) -> MessageBody {
        let starting = { @Sendable (state: inout State) in
            state.position = offset
            state.lastRead = .now
        }
        state.withLock(starting)
        return MessageBody(length: total - offset) { [state] in
            state.withLock(starting)
            return source.chunks(from: offset) { count in
                state.withLock { state in
                    state.position += Int64(count)
                    state.lastRead = .now
                    state.sent = max(state.sent, state.position)
                    Self.advance(&state, to: state.position)
                }
            }
        }
    }

    /// The upload is complete: reports the total.
    func finish() {
        state.withLock { state in
            state.reported = total
            state.reporter.report(total, isFinal: true)
        }
    }

    private static func advance(_ state: inout State, to completed: Int64) {
        guard completed > state.reported else { return }
        state.reported = completed
        state.reporter.report(completed)
    }
}
