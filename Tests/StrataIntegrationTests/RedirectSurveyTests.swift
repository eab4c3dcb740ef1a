import Foundation
import HTTPTypes
import Strata
import StrataFaultServer
import Testing

/// The redirects of ``FaultServer``, to record what each transport does with them today.
/// Strata's own redirect step will define the expectations; until then the only
/// assertion is that no call crashes or hangs (each ends within the deadline plus 1 s).
/// Run with `STRATA_FAULT_REPORT=1` to print what happened.
enum RedirectProbe: CaseIterable, CustomTestStringConvertible, Sendable {
    /// `status` to the relative `/ok`, with or without a body in the 3xx response.
    case status(Int, withBody: Bool)
    /// `302` to the absolute URL of `/ok` on the same server.
    case absoluteSameOrigin
    /// `302` to `/ok` on a second server (another port, so another origin).
    case crossOrigin
    /// `/loop`, which redirects to itself.
    case loop
    /// `/chain/N`: `N` redirects before `/ok`.
    case chain(Int)

    static let allCases: [RedirectProbe] =
        [301, 302, 303, 307, 308].flatMap { [status($0, withBody: false), status($0, withBody: true)] }
        + [.absoluteSameOrigin, .crossOrigin, .loop, .chain(5), .chain(12)]

    var testDescription: String {
        switch self {
        case .status(let code, let withBody): "\(code) \(withBody ? "with" : "without") body"
        case .absoluteSameOrigin: "302 absolute, same origin"
        case .crossOrigin: "302 cross-origin"
        case .loop: "loop"
        case .chain(let count): "chain of \(count)"
        }
    }

    /// The route to request first; `other` is the second server, for ``crossOrigin``.
    func route(on server: FaultServer, other: FaultServer) -> FaultRoute {
        switch self {
        case .status(let code, let withBody): .redirect(status: code, to: "/ok", withBody: withBody)
        case .absoluteSameOrigin: .redirect(status: 302, to: server.url(for: .ok).absoluteString, withBody: false)
        case .crossOrigin: .redirect(status: 302, to: other.url(for: .ok).absoluteString, withBody: false)
        case .loop: .loop
        case .chain(let count): .chain(count)
        }
    }
}

@Suite("Redirects over each transport today")
struct RedirectSurveyTests {
    /// Sent with every probe: a `POST` with a body and credentials, to see which of them
    /// survive each redirect.
    static let headers: HTTPFields = [.authorization: "Bearer secret-token", .cookie: "session=abc"]
    static let body = Data("ping".utf8)

    @Test(arguments: RedirectProbe.allCases, TransportKind.allCases)
    func redirectNeitherCrashesNorHangs(_ probe: RedirectProbe, _ transport: TransportKind) async throws {
        try await FaultServer.with { server in
            try await FaultServer.with { other in
                try await transport.with { client in
                    let url = server.url(for: probe.route(on: server, other: other))
                    let (observation, elapsed) = await FaultExchange.run(
                        url, with: FaultExchange.networker(over: client), method: .post, headers: Self.headers, body: Self.body)
                    let followed = Array(server.requests.dropFirst()) + other.requests
                    FaultExchange.report(
                        "redirect: \(probe.testDescription)", transport.rawValue, "no crash, no hang", "\(observation)",
                        FaultExchange.seconds(elapsed), "\(followed.count) followed",
                        Self.describe(followed.last, crossOrigin: other.requestCount > 0))
                    #expect(elapsed <= FaultExchange.deadline + FaultExchange.margin)
                }
            }
        }
    }

    /// What arrived after the redirects, at the last request: method, target, whether the
    /// body and the credentials came along.
    static func describe(_ request: RecordedRequest?, crossOrigin: Bool) -> String {
        guard let request else { return "not followed" }
        let carried = [
            request.body.isEmpty ? nil : "body",
            request.value(for: "authorization") == nil ? nil : "Authorization",
            request.value(for: "cookie") == nil ? nil : "Cookie",
        ].compactMap { $0 }
        let origin = crossOrigin ? " on the other origin" : ""
        return "last: \(request.method) \(request.target)\(origin), with \(carried.isEmpty ? "none of body/Authorization/Cookie" : carried.joined(separator: ", "))"
    }
}
