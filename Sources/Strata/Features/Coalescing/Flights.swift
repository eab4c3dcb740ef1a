import Foundation
import HTTPTypes

/// The requests a ``CoalescingMiddleware`` has in flight, and the calls waiting for each
/// one's response: every caller of a flight, the one that started it included, waits in one
/// ``WaitingLine`` for the shared outcome, under its own deadline and cancellation; the
/// flight's request is cancelled when its last caller leaves before it ended.
final class Flights: Sendable {
    /// The response a flight shares: the head, the whole body, and the request as the flight
    /// sent it (whose fields a `Vary` names).
    struct Shared: Sendable {
        let request: HTTPRequest
        let head: HTTPResponse
        let body: Data
    }

    typealias Outcome = Result<Shared, any Error>

    private struct Flight {
        let identity: RequestIdentity
        /// The callers that joined and have not taken the outcome or left yet.
        var callers = 1
        /// The request's outcome, once it ended.
        var outcome: Outcome?
        var task: Task<Void, Never>?
    }

    private struct State {
        var open: [RequestIdentity: Int] = [:]
        var flights: [Int: Flight] = [:]
        var line: WaitingLine<Int, Outcome>
        var nextID = 0
    }

    private let state: Locked<State>

    init(waitingLimit: Int) {
        state = Locked(State(line: WaitingLine(limit: waitingLimit)))
    }

    /// Joins the open flight of `identity`, or opens one: `leads` says the caller opened
    /// it and must ``start(_:_:)`` it.
    func join(_ identity: RequestIdentity) -> (flight: Int, leads: Bool) {
        state.withLock { state in
            if let id = state.open[identity] {
                state.flights[id]?.callers += 1
                return (id, false)
            }
            let id = state.nextID
            state.nextID += 1
            state.open[identity] = id
            state.flights[id] = Flight(identity: identity)
            return (id, true)
        }
    }

    /// Runs the flight's request in a task of its own, which no caller's cancellation
    /// reaches: it ends with the request, or when its last caller leaves.
    func start(_ id: Int, _ send: @escaping @Sendable () async throws -> Shared) {
        let task = Task { [self] in
            let outcome: Outcome
            do {
                outcome = .success(try await send())
            } catch {
                outcome = .failure(error)
            }
            land(id, outcome)
        }
        let abandoned = state.withLock { state in
            guard state.flights[id] != nil else { return true }
            if state.flights[id]?.outcome == nil { state.flights[id]?.task = task }
            return false
        }
        if abandoned { task.cancel() }
    }

    /// Waits for the flight's outcome until `deadline`.
    /// - Throws: what ``Locked/wait(in:for:priority:until:take:)`` throws: a full line, the
    ///   deadline, a cancellation.
    func outcome(of id: Int, until deadline: ContinuousClock.Instant?) async throws -> Outcome {
        try await state.wait(in: \.line, for: id, until: deadline) { $0.flights[id]?.outcome }
    }

    /// The caller is done with the flight: it took the outcome or gave up. The last caller
    /// to leave closes the flight, and cancels its request if it is still running.
    func leave(_ id: Int) {
        let abandoned = state.withLock { state -> Task<Void, Never>? in
            guard var flight = state.flights[id] else { return nil }
            flight.callers -= 1
            guard flight.callers == 0 else {
                state.flights[id] = flight
                return nil
            }
            state.flights[id] = nil
            if state.open[flight.identity] == id { state.open[flight.identity] = nil }
            return flight.outcome == nil ? flight.task : nil
        }
        abandoned?.cancel()
    }

    /// The flight's request ended: later callers open a new flight, and every waiting
    /// caller gets `outcome`.
    private func land(_ id: Int, _ outcome: Outcome) {
        let granted = state.withLock { state -> [WaitingLine<Int, Outcome>.Granted] in
            guard var flight = state.flights[id] else { return [] }
            flight.outcome = outcome
            flight.task = nil
            state.flights[id] = flight
            if state.open[flight.identity] == id { state.open[flight.identity] = nil }
            return state.line.grant { $0 == id ? outcome : nil }
        }
        for waiter in granted { waiter.resume() }
    }
}
