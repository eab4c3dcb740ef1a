import NIOConcurrencyHelpers
import NIOCore

/// What a ``FaultServer`` knows about its connections and the requests they carried,
/// shared by the tasks serving them.
final class ConnectionRegistry: Sendable {
    private struct State {
        var requests: [RecordedRequest] = []
        var connectionCount = 0
        var open: [Int: any Channel] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// Every request read so far.
    var requests: [RecordedRequest] { state.withLockedValue { $0.requests } }

    /// How many connections were accepted.
    var connectionCount: Int { state.withLockedValue { $0.connectionCount } }

    /// The connections not closed yet.
    var openChannels: [any Channel] { state.withLockedValue { Array($0.open.values) } }

    /// Registers a new connection and returns its number (1 for the first).
    func opened(_ channel: any Channel) -> Int {
        state.withLockedValue { state in
            state.connectionCount += 1
            state.open[state.connectionCount] = channel
            return state.connectionCount
        }
    }

    /// Forgets connection `number`, which has closed.
    func closed(_ number: Int) {
        _ = state.withLockedValue { $0.open.removeValue(forKey: number) }
    }

    /// Records a request.
    func record(_ request: RecordedRequest) {
        state.withLockedValue { $0.requests.append(request) }
    }
}
