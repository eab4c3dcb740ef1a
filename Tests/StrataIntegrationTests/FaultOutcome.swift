import Foundation
import HTTPTypes
import Strata

/// What a call through a ``Networker`` came to, in the terms the fault table compares:
/// the error's kind, phase and transport kind (all `nil` for a success), the response
/// status when there was one, and the body (the success body, or the failed response's
/// body kept in the error).
struct FaultOutcome: Equatable, CustomStringConvertible {
    var kind: StrataError.Kind?
    var phase: StrataError.Phase?
    var transportKind: TransportError.Kind?
    /// `503 Service Unavailable`: code and reason phrase.
    var status: String?
    var retryAfter: String?
    var body: Data?

    /// A success with `status` (code and reason phrase) and exactly `body`.
    static func success(_ status: String, body: String) -> FaultOutcome {
        FaultOutcome(status: status, body: Data(body.utf8))
    }

    /// A ``StrataError/Kind/transport`` failure of `kind` in `phase`; when the head had
    /// arrived (``StrataError/Phase/readingBody``), the error carries its `200 OK`.
    static func transport(_ kind: TransportError.Kind, _ phase: StrataError.Phase) -> FaultOutcome {
        FaultOutcome(kind: .transport, phase: phase, transportKind: kind,
                     status: phase == .readingBody ? "200 OK" : nil)
    }

    /// ``StrataError/Kind/bodyTooLarge`` after a `200 OK` head; no phase, no transport error.
    static let bodyTooLarge = FaultOutcome(kind: .bodyTooLarge, status: "200 OK")

    /// ``StrataError/Kind/unacceptableStatus`` for `503 Service Unavailable` with
    /// `Retry-After: 1` and `body`.
    static func unavailable(body: String) -> FaultOutcome {
        FaultOutcome(kind: .unacceptableStatus, status: "503 Service Unavailable", retryAfter: "1", body: Data(body.utf8))
    }

    /// The outcome of a call.
    init(_ result: Result<EndpointResponse<Data>, StrataError>) {
        switch result {
        case .success(let response):
            self.init(response: response.head, body: response.body)
        case .failure(let error):
            self.init(response: error.response, body: error.body)
            kind = error.kind
            phase = error.phase
            transportKind = error.transportError?.kind
        }
    }

    private init(response: HTTPResponse?, body: Data?) {
        status = response.map { "\($0.status.code) \($0.status.reasonPhrase)" }
        retryAfter = response?.headerFields[.retryAfter]
        self.body = body.flatMap { $0.isEmpty ? nil : $0 }
    }

    private init(kind: StrataError.Kind? = nil, phase: StrataError.Phase? = nil,
                 transportKind: TransportError.Kind? = nil, status: String? = nil,
                 retryAfter: String? = nil, body: Data? = nil) {
        self.kind = kind
        self.phase = phase
        self.transportKind = transportKind
        self.status = status
        self.retryAfter = retryAfter
        self.body = body
    }

    /// `transport(timed out) while reading the body · 200 OK · body "ok"`, one line.
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
        if let status { parts.append(status) }
        if let retryAfter { parts.append("Retry-After: \(retryAfter)") }
        if let body {
            let text = String(decoding: body.prefix(40), as: UTF8.self).replacingOccurrences(of: "\n", with: "⏎")
            parts.append(body.count > 40 ? "body \(body.count) bytes \"\(text)…\"" : "body \"\(text)\"")
        }
        return parts.joined(separator: " · ")
    }
}
