import NIOConcurrencyHelpers
import NIOCore

/// What a ``FaultServer`` knows about its connections and the requests they carried,
/// shared by the tasks serving them.
final class ConnectionRegistry: Sendable {
    private struct State {
        var requests: [RecordedRequest] = []
        var connectionCount = 0
        var open: [Int: any Channel] = [:]
        var isShutDown = false
    }

    private let state = NIOLockedValueBox(State())

    /// Every request read so far.
    var requests: [RecordedRequest] { state.withLockedValue { $0.requests } }

    /// How many connections were accepted.
    var connectionCount: Int { state.withLockedValue { $0.connectionCount } }

    /// How many connections are open now.
    var openCount: Int { state.withLockedValue { $0.open.count } }

    /// Registers a new connection and returns its number (1 for the first), or `nil`
    /// once the server has shut down: the connection is to be closed unserved.
    func opened(_ channel: any Channel) -> Int? {
        state.withLockedValue { state in
            guard !state.isShutDown else { return nil }
            state.connectionCount += 1
            state.open[state.connectionCount] = channel
            return state.connectionCount
        }
    }

    /// Marks the server as shut down and returns the connections still open, to close.
    func shutDown() -> [any Channel] {
        state.withLockedValue { state in
            state.isShutDown = true
            return Array(state.open.values)
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
