import Foundation
import HTTPTypes
import PropertyBased
import Strata
import StrataSQLiteCache
import Testing

/// Random sequences of enqueue, deliver and restart against a server that answers each
/// request at random (`201`, `503`, `422`, a lost connection): after every step the
/// outbox agrees with what the server answered — each item is pending, applied or a dead
/// letter, and only one of them; nothing is sent after its final answer; a group's items
/// are applied in the order they were enqueued.
@Suite(.runsAlone) struct OutboxPropertyTests {
    enum Step: Sendable, CustomStringConvertible {
        case enqueue(group: Int)
        case deliver
        case restart

        var description: String {
            switch self {
            case .enqueue(let group): "enqueue(\(group))"
            case .deliver: "deliver"
            case .restart: "restart"
            }
        }
    }

    enum Answer: Sendable {
        case applied, unavailable, refused, lost
    }

    struct Script: Sendable, CustomStringConvertible {
        let steps: [Step]
        let answers: [Answer]
        var description: String { "\(steps) answered \(answers.prefix(20))…" }
    }

    static let scripts = Generator<Script, Shrink.None<Script>> { rng in
        let steps = (0..<Int.random(in: 1...25, using: &rng)).map { _ -> Step in
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5: .enqueue(group: Int.random(in: 0..<3, using: &rng))
            case 5..<9: .deliver
            default: .restart
            }
        }
        let answers = (0..<64).map { _ -> Answer in
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5: .applied
            case 5..<7: .unavailable
            case 7: .refused
            default: .lost
            }
        }
        return Script(steps: steps, answers: answers)
    }

    /// The server: answers each request with the script's next answer and notes, per
    /// key, the final answers it gave and every request after one.
    final class ScriptedServer: Transport {
        private struct State {
            var next = 0
            var final: [String: Answer] = [:]
            var appliedOrder: [String: [Int]] = [:]
            var sentAfterFinal: [String] = []
        }
        private let answers: [Answer]
        private let state = Locked(State())

        init(answers: [Answer]) { self.answers = answers }

        var final: [String: Answer] { state.withLock { $0.final } }
        var appliedOrder: [String: [Int]] { state.withLock { $0.appliedOrder } }
        var sentAfterFinal: [String] { state.withLock { $0.sentAfterFinal } }

        func send(_ request: HTTPRequest, body: MessageBody?, deadline: ContinuousClock.Instant?) async throws -> (
            HTTPResponse, MessageBody?
        ) {
            let key = request.headerFields[RetryPolicy.idempotencyKey] ?? ""
            let parts = (request.path ?? "").split(separator: "/")
            let answer = state.withLock { state -> Answer in
                if state.final[key] != nil { state.sentAfterFinal.append(key) }
                let answer = answers[state.next % answers.count]
                state.next += 1
                switch answer {
                case .applied:
                    state.final[key] = .applied
                    state.appliedOrder[String(parts.first ?? ""), default: []].append(Int(parts.last ?? "") ?? -1)
                case .refused: state.final[key] = .refused
                case .unavailable, .lost: break
                }
                return answer
            }
            switch answer {
            case .applied: return (HTTPResponse(status: .created), nil)
            case .unavailable: return (HTTPResponse(status: .serviceUnavailable), nil)
            case .refused: return (HTTPResponse(status: .unprocessableContent), nil)
            case .lost: throw TransportError(.connectionLost)
            }
        }
    }

    static let policy = OutboxPolicy(initialBackoff: .milliseconds(1), maxBackoff: .milliseconds(2))

    /// Plays `script` on a store `makeStore` opens; after each step the outbox closes (an
    /// attempt under way ends first) and a new one opens on the store (`restart` does only
    /// that), and the store is compared with what the server answered.
    static func play(_ script: Script, makeStore: () throws -> any OutboxStore) async throws {
        let server = ScriptedServer(answers: script.answers)
        let networker = Networker(transport: server)
        var outbox = Outbox(networker: networker, store: try makeStore(), policy: policy, startsPaused: true)
        var enqueued: [String] = []
        for step in script.steps {
            switch step {
            case .enqueue(let group):
                let index = enqueued.count
                let endpoint = Endpoint<Data>(
                    RequestDescription(
                        route: "http://outbox.test/\(group)/\(index)", method: .post, parameters: ["n": index]))
                enqueued.append(try outbox.enqueue(endpoint, group: "\(group)").idempotencyKey)
            case .deliver:
                await outbox.drain()
            case .restart:
                break
            }
            await outbox.close()
            outbox = Outbox(networker: networker, store: try makeStore(), policy: policy, startsPaused: true)

            let final = server.final
            #expect(try outbox.pending.map(\.idempotencyKey) == enqueued.filter { final[$0] == nil }, "\(script)")
            #expect(
                try outbox.deadLetters.map(\.item.idempotencyKey) == enqueued.filter { final[$0] == .refused },
                "\(script)")
            #expect(server.sentAfterFinal.isEmpty, "\(script)")
            for (group, order) in server.appliedOrder {
                #expect(order == order.sorted(), "group \(group) applied \(order), \(script)")
            }
        }
        await outbox.close()
    }

    @Test func aMemoryStoreAgreesWithTheServer() async {
        await propertyCheck(count: 200, input: Self.scripts) { script in
            let store = MemoryOutboxStore()
            try await Self.play(script) { store }
        }
    }

    @Test func aSQLiteStoreAgreesWithTheServerAcrossReopening() async {
        await propertyCheck(count: 40, input: Self.scripts) { script in
            let path = try SQLiteCacheStoreTests.temporaryPath()
            try await Self.play(script) { try SQLiteOutboxStore(path: path) }
        }
    }
}
