import HummingbirdCore
import NIOConcurrencyHelpers
import NIOCore

/// Every HTTP/1 connection a server has set up and not yet served, so that none is
/// dropped unfinished when the server stops.
///
/// SwiftNIO hands an accepted connection to the server's accept loop through a buffer.
/// A connection still in that buffer when the loop ends (its task was cancelled, or the
/// listening channel closed while the connection was being set up) is never served, and
/// its `NIOAsyncWriter` traps when it is freed unfinished ("Deinited NIOAsyncWriter
/// without calling finish()", apple/swift-nio#2813 and #3481). The ledger holds each
/// connection from set-up until its handler returns; once the server has stopped,
/// ``closeAndFinishUnserved()`` finishes and closes whatever is left, and refuses
/// connections set up after that.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
final class ConnectionLedger: Sendable {
    /// Thrown from set-up once the ledger is closed: the connection is refused.
    struct Closed: Error {}

    private struct State {
        var isOpen = true
        var unserved: [ObjectIdentifier: HTTP1Channel.Value] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// Whether connections are still taken in.
    var isOpen: Bool { state.withLockedValue { $0.isOpen } }

    /// Records a connection that was just set up; `false` once the ledger is closed.
    func adopt(_ connection: HTTP1Channel.Value) -> Bool {
        state.withLockedValue { state in
            guard state.isOpen else { return false }
            state.unserved[ObjectIdentifier(connection.channel)] = connection
            return true
        }
    }

    /// Forgets a connection its handler has served (its handler finished and closed it).
    func release(_ connection: HTTP1Channel.Value) {
        _ = state.withLockedValue { $0.unserved.removeValue(forKey: ObjectIdentifier(connection.channel)) }
    }

    /// Closes the ledger, then finishes and closes every connection that was set up but
    /// never served. Call once the server has stopped, so no handler is running.
    func closeAndFinishUnserved() async {
        let leftovers = state.withLockedValue { state in
            state.isOpen = false
            defer { state.unserved = [:] }
            return Array(state.unserved.values)
        }
        for connection in leftovers {
            // Finishes the outbound writer, then closes the channel.
            try? await connection.executeThenClose { _, _ in }
        }
    }
}
