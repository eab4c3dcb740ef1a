import Foundation
import HTTPTypes
import Strata

/// A ``Transport`` that answers at once from memory: no I/O, no timers, nothing but the
/// `Networker`'s own work around it. The soak mode's workload A and the harness's
/// `mock` group (the pure pipeline cost) run on it, and so do the callgrind cases.
///
/// It answers `GET /bench/photos` with ``Payloads/photosJSON``, any `POST` with
/// ``Payloads/formEchoJSON`` (the request body is not read), and anything else with
/// ``Payloads/userJSON`` (`GET /bench/user-cached` with `Cache-Control: max-age=3600`). It keeps the transport contract: it throws
/// `CancellationError` when the task is cancelled and a timed-out ``TransportError``
/// when the deadline has already passed.
struct InstantTransport: Transport {
    /// The user; the host is never resolved.
    static let userURL = URL(string: "http://strata-bench.invalid/json/user/1")!
    /// The user, with a `Cache-Control: max-age=3600` answer.
    static let cachedUserURL = URL(string: "http://strata-bench.invalid/bench/user-cached")!
    /// The 1 MB photo list.
    static let photosURL = URL(string: "http://strata-bench.invalid/bench/photos")!
    /// Where the form is POSTed.
    static let formURL = URL(string: "http://strata-bench.invalid/echo/form")!

    private static let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
    private static let cachedHead = HTTPResponse(
        status: .ok, headerFields: [.contentType: "application/json", .cacheControl: "max-age=3600"])

    /// `true`: it answers at once, or throws past the deadline.
    var enforcesDeadline: Bool { true }

    func send(
        _ request: HTTPRequest,
        body: MessageBody?,
        deadline: ContinuousClock.Instant?
    ) async throws -> (HTTPResponse, MessageBody?) {
        try Task.checkCancellation()
        if let deadline, deadline <= .now { throw TransportError(.timedOut) }
        let bytes =
            if request.method == .post {
                Payloads.formEchoJSON
            } else if request.path == "/bench/photos" {
                Payloads.photosJSON
            } else {
                Payloads.userJSON
            }
        return (request.path == "/bench/user-cached" ? Self.cachedHead : Self.head, MessageBody(bytes))
    }
}

/// A transport passed through as it is, but for ``Transport/enforcesDeadline``: `false`,
/// so a `Networker` over it runs each call in a task of its own (the `inline` group's
/// baseline).
struct TaskedTransport: Transport {
    let base: any Transport

    func send(
        _ request: HTTPRequest,
        body: MessageBody?,
        deadline: ContinuousClock.Instant?
    ) async throws -> (HTTPResponse, MessageBody?) {
        try await base.send(request, body: body, deadline: deadline)
    }
}
