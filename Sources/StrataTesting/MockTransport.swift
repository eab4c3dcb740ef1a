import Foundation
import HTTPTypes
import Strata

/// An in-memory `Transport` for tests and offline prototyping: it answers from
/// registered stubs and records every request it receives.
///
/// ```swift
/// let mock = MockTransport()
/// mock.stub(.get, "/users/:id", with: .json(["name": "Ann"]))
/// mock.stub(.post, "/users", with: [.status(.serviceUnavailable), .status(.created)])
/// // ... send requests through a client using `mock` ...
/// #expect(mock.requests.map(\.path) == ["/users/1"])
/// ```
///
/// Stubs are tried latest first, so a test can override a default registered earlier.
/// A request no stub takes throws ``MockTransportError/noStub(method:path:registeredStubs:)``.
/// Delays honour the deadline (throwing `TransportError.Kind.timedOut`) and task
/// cancellation (throwing `CancellationError`).
public final class MockTransport: Transport, Sendable {
    let state = Locked(MockTransportState())

    /// Creates a transport with no stubs.
    public init() {}

    /// Every request received so far, oldest first, with its whole body.
    public var requests: [RecordedRequest] {
        state.withLock { $0.requests }
    }

    /// Forgets every stub (WebSocket stubs and their peers too) and every recorded request.
    public func reset() {
        state.withLock { state in
            // `nextStubID` keeps counting, so a request still in flight cannot credit a new stub.
            state.stubs = []
            state.callCounts = [:]
            state.requests = []
            state.webSocketStubs = []
            state.webSocketPeers = []
        }
    }

    /// Records the request, finds the latest stub that takes it, waits out the
    /// response's delay and answers.
    /// - Throws: ``MockTransportError`` when no stub takes the request,
    ///   `TransportError` of kind `TransportError.Kind.timedOut` past `deadline`,
    ///   `CancellationError` when the task is cancelled, or the stub's injected error.
    public func send(
        _ request: HTTPRequest,
        body: MessageBody?,
        deadline: ContinuousClock.Instant?
    ) async throws -> (HTTPResponse, MessageBody?) {
        try Task.checkCancellation()
        let bytes = try await body?.collect(upTo: Int.max) ?? Data()
        let recorded = RecordedRequest(head: request, body: bytes)
        state.withLock { $0.requests.append(recorded) }

        let response = try await respond(to: recorded)
        try await Self.wait(response.delay, deadline: deadline)
        if let error = response.error { throw error }
        return (
            HTTPResponse(status: response.status, headerFields: response.headerFields),
            response.body.isEmpty ? nil : MessageBody(response.body)
        )
    }
}
