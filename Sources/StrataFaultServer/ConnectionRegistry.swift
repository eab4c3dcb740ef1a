import NIOConcurrencyHelpers
import NIOCore

/// What a ``FaultServer`` knows about its connections and the requests they carried,
/// shared by the tasks serving them.
///
/// It also holds every connection from set-up until the accept loop takes it. SwiftNIO
/// hands an accepted connection to that loop through a buffer; one set up while the
/// listener closes never reaches the loop, and its `NIOAsyncWriter` traps when it is
/// freed unfinished ("Deinited NIOAsyncWriter without calling finish()",
/// apple/swift-nio#3481). ``FaultServer/shutdown()`` finishes those with ``takeUnserved()``.
final class ConnectionRegistry: Sendable {
    typealias Connection = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    private struct State {
        var requests: [RecordedRequest] = []
        var connectionCount = 0
        var open: [Int: any Channel] = [:]
        var unserved: [ObjectIdentifier: Connection] = [:]
        var isShutDown = false
    }

    private let state = NIOLockedValueBox(State())

    /// Every request read so far.
    var requests: [RecordedRequest] { state.withLockedValue { $0.requests } }

    /// How many connections were accepted.
    var connectionCount: Int { state.withLockedValue { $0.connectionCount } }

    /// How many connections are open now.
    var openCount: Int { state.withLockedValue { $0.open.count } }

    /// Whether the server still takes connections in.
    var isAccepting: Bool { state.withLockedValue { !$0.isShutDown } }

    /// Holds a connection that was just set up until the accept loop takes it; `false`
    /// once the server has shut down (the connection is to be refused).
    func setUp(_ connection: Connection) -> Bool {
        state.withLockedValue { state in
            guard !state.isShutDown else { return false }
            state.unserved[ObjectIdentifier(connection.channel)] = connection
            return true
        }
    }

    /// Registers a connection the accept loop took and returns its number (1 for the
    /// first), or `nil` once the server has shut down: the connection is to be closed
    /// unserved.
    func opened(_ connection: Connection) -> Int? {
        state.withLockedValue { state in
            state.unserved.removeValue(forKey: ObjectIdentifier(connection.channel))
            guard !state.isShutDown else { return nil }
            state.connectionCount += 1
            state.open[state.connectionCount] = connection.channel
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

    /// The connections that were set up and never reached the accept loop, forgotten.
    /// Call once the accept loop has ended.
    func takeUnserved() -> [Connection] {
        state.withLockedValue { state in
            defer { state.unserved = [:] }
            return Array(state.unserved.values)
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
