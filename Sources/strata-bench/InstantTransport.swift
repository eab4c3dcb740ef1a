import Foundation
import HTTPTypes
import Strata

/// A ``Transport`` that answers every request at once with the same user: no I/O, no
/// timers, nothing but the `Networker`'s own work around it (the soak mode's workload A).
///
/// It keeps the transport contract: it throws `CancellationError` when the task is
/// cancelled and a timed-out ``TransportError`` when the deadline has already passed.
struct InstantTransport: Transport {
    /// A `GET /json/user/1` body in the test server's shape, with three photos: 193 bytes.
    static let userJSON = Data("""
        {"age":30,"name":"User 1","photos":[\
        {"id":"1-1","ref":"https://img.example/1/1.jpg"},\
        {"id":"1-2","ref":"https://img.example/1/2.jpg"},\
        {"id":"1-3","ref":"https://img.example/1/3.jpg"}],"type":0}
        """.utf8)

    /// Where the requests go; never resolved.
    static let userURL = URL(string: "http://strata-bench.invalid/json/user/1")!

    func send(
        _ request: HTTPRequest,
        body: MessageBody?,
        deadline: ContinuousClock.Instant?
    ) async throws -> (HTTPResponse, MessageBody?) {
        try Task.checkCancellation()
        if let deadline, deadline <= .now { throw TransportError(.timedOut) }
        return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
                MessageBody(Self.userJSON))
    }
}
