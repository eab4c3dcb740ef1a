import Foundation
import HTTPTypes
import Strata

extension MockTransport {
    /// The response of the latest stub that takes `request`.
    /// - Throws: ``MockTransportError/noStub(method:path:registeredStubs:)`` when none
    ///   does, or what a handler throws.
    func respond(to request: RecordedRequest) async throws -> MockResponse {
        // Handlers run outside the lock, so work on a snapshot.
        let stubs = state.withLock { $0.stubs }
        for stub in stubs.reversed() {
            guard let parameters = stub.match(request.head) else { continue }
            switch stub.action {
            case .responses(let responses):
                guard !responses.isEmpty else { throw MockTransportError.noResponses(stub: stub.description) }
                let served = countCall(of: stub)
                return responses[min(served, responses.count - 1)]
            case .handler(let handler):
                let response = try await handler(request, parameters)
                countCall(of: stub)
                return response
            case .custom(let handler):
                guard let response = try await handler(request.head, request.body) else { continue }
                countCall(of: stub)
                return response
            }
        }
        throw MockTransportError.noStub(
            method: request.method,
            path: request.head.path ?? "",
            registeredStubs: stubs.reversed().map(\.description))
    }

    /// Counts one more answer from `stub` and returns how many it had given before.
    @discardableResult
    private func countCall(of stub: MockStub) -> Int {
        state.withLock { state in
            let served = state.callCounts[stub.id, default: 0]
            state.callCounts[stub.id] = served + 1
            return served
        }
    }

    /// Sleeps for `delay`, giving up at `deadline`.
    /// - Throws: ``TransportError`` of kind ``TransportError/Kind/timedOut`` when the
    ///   deadline has passed or passes first; `CancellationError` when cancelled.
    static func wait(_ delay: Duration?, deadline: ContinuousClock.Instant?) async throws {
        let clock = ContinuousClock()
        let now = clock.now
        if let deadline, deadline <= now { throw TransportError(.timedOut) }
        guard let delay, delay > .zero else { return }
        let end = now.advanced(by: delay)
        if let deadline, deadline < end {
            try await clock.sleep(until: deadline)
            throw TransportError(.timedOut)
        }
        try await clock.sleep(until: end)
    }
}
