import Foundation
import HTTPTypes
import Strata

/// What a call through a ``Networker`` came to, in the terms the fault table compares:
/// the error's kind, phase and transport kind (all `nil` for a success), the response
/// status code when there was one, its `Retry-After`, and the body (the success body,
/// or the failed response's body kept in the error). The reason phrase is checked on
/// its own (``FaultObservation``).
struct FaultOutcome: Codable, Equatable, CustomStringConvertible {
    var kind: StrataError.Kind?
    var phase: StrataError.Phase?
    var transportKind: TransportError.Kind?
    var status: Int?
    var retryAfter: String?
    var body: Data?

    /// A success with `status` and exactly `body`.
    static func success(_ status: Int, body: String) -> FaultOutcome {
        FaultOutcome(status: status, body: Data(body.utf8))
    }

    /// A ``StrataError/Kind/transport`` failure of `kind` in `phase`; when the head had
    /// arrived (``StrataError/Phase/readingBody``), the error carries its `200`.
    static func transport(_ kind: TransportError.Kind, _ phase: StrataError.Phase) -> FaultOutcome {
        FaultOutcome(kind: .transport, phase: phase, transportKind: kind, status: phase == .readingBody ? 200 : nil)
    }

    /// ``StrataError/Kind/bodyTooLarge`` after a `200` head; no phase, no transport error.
    static let bodyTooLarge = FaultOutcome(kind: .bodyTooLarge, status: 200)

    /// ``StrataError/Kind/unacceptableStatus`` for a `503` with `Retry-After: 1` and `body`.
    static func unavailable(body: String) -> FaultOutcome {
        FaultOutcome(kind: .unacceptableStatus, status: 503, retryAfter: "1", body: Data(body.utf8))
    }

    /// `transport(timed out) while reading the body · 200 · body "ok"`, one line.
    var description: String {
        var parts: [String] = []
        if let kind {
            var failure = "\(kind)"
            if let transportKind { failure += "(\(transportKind))" }
            if let phase { failure += " while \(phase)" }
            parts.append(failure)
        } else {
            parts.append("success")
        }
        if let status { parts.append("\(status)") }
        if let retryAfter { parts.append("Retry-After: \(retryAfter)") }
        if let body {
            let text = String(decoding: body.prefix(40), as: UTF8.self).replacingOccurrences(of: "\n", with: "⏎")
            parts.append(body.count > 40 ? "body \(body.count) bytes \"\(text)…\"" : "body \"\(text)\"")
        }
        return parts.joined(separator: " · ")
    }
}

/// A call's ``FaultOutcome`` with what the table does not compare with it: the reason
/// phrase (checked on its own against the standard phrase of the status) and the
/// underlying error, for the report.
struct FaultObservation: Codable, CustomStringConvertible {
    let outcome: FaultOutcome
    /// The response's reason phrase, when a response arrived.
    let reasonPhrase: String?
    /// The error's one-line description, when the call failed.
    let detail: String?

    /// An observation made of its parts.
    init(outcome: FaultOutcome, reasonPhrase: String?, detail: String?) {
        self.outcome = outcome
        self.reasonPhrase = reasonPhrase
        self.detail = detail
    }

    /// Observes a call's result.
    init(_ result: Result<EndpointResponse<Data>, StrataError>) {
        var outcome = FaultOutcome()
        let response: HTTPResponse?
        let body: Data?
        switch result {
        case .success(let success):
            response = success.head
            body = success.body
            detail = nil
        case .failure(let error):
            response = error.response
            body = error.body
            outcome.kind = error.kind
            outcome.phase = error.phase
            // The table names a transport kind for transport failures only (a transport's
            // own size guard is attached to a bodyTooLarge, not part of its outcome).
            outcome.transportKind = error.kind == .transport ? error.transportError?.kind : nil
            detail = error.transportError?.description ?? error.underlying.map { "\($0)" }
        }
        outcome.status = response?.status.code
        outcome.retryAfter = response?.headerFields[.retryAfter]
        outcome.body = body.flatMap { $0.isEmpty ? nil : $0 }
        self.outcome = outcome
        reasonPhrase = response?.status.reasonPhrase
    }

    /// The reason phrase every transport must report: the standard phrase of the status
    /// (the fault server sends no other), `nil` without a response.
    var expectedReasonPhrase: String? {
        outcome.status.map { HTTPResponse.Status(code: $0).withStandardReasonPhrase.reasonPhrase }
    }

    /// The outcome, the reason phrase after the status when it is not the expected
    /// one, and the underlying error.
    var description: String {
        var text = "\(outcome)"
        if let reasonPhrase, reasonPhrase != expectedReasonPhrase { text += " · reason phrase \"\(reasonPhrase)\"" }
        if let detail { text += " — \(detail.prefix(120))" }
        return text
    }
}
