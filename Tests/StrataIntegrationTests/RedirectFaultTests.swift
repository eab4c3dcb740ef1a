import Foundation
import HTTPTypes
import Strata
import StrataFaultServer
import StrataTestSupport
import Testing

/// The redirects of ``FaultServer``, each followed by Strata's ``RedirectMiddleware`` with
/// the same outcome on every transport. Run with `STRATA_FAULT_REPORT=1` to print what
/// happened.
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
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func route(on server: FaultServer, other: FaultServer) -> FaultRoute {
        switch self {
        case .status(let code, let withBody): .redirect(status: code, to: "/ok", withBody: withBody)
        case .absoluteSameOrigin: .redirect(status: 302, to: server.url(for: .ok).absoluteString, withBody: false)
        case .crossOrigin: .redirect(status: 302, to: other.url(for: .ok).absoluteString, withBody: false)
        case .loop: .loop
        case .chain(let count): .chain(count)
        }
    }

    /// What a `POST` with a body and credentials comes to: the outcome, how many
    /// requests followed the first, and what the last one carried.
    var expected: (outcome: String, followed: Int, last: String) {
        let same = "with body, Authorization, Cookie"
        switch self {
        case .status(let code, _) where code == 307 || code == 308:
            return ("success · 200 · body \"ok\"", 1, "last: POST /ok, \(same)")
        case .status: return ("success · 200 · body \"ok\"", 1, "last: GET /ok, with Authorization, Cookie")
        case .absoluteSameOrigin: return ("success · 200 · body \"ok\"", 1, "last: GET /ok, with Authorization, Cookie")
        case .crossOrigin:
            return (
                "success · 200 · body \"ok\"", 1,
                "last: GET /ok on the other origin, with none of body/Authorization/Cookie"
            )
        // POST /loop, then GET /loop, whose redirect to GET /loop is the loop.
        case .loop:
            return (
                "redirect · 302 — redirect loop (to /loop after 1 redirect)", 1,
                "last: GET /loop, with Authorization, Cookie"
            )
        case .chain(let count) where count <= 10:
            return ("success · 200 · body \"ok\"", count + 1, "last: GET /ok, with Authorization, Cookie")
        case .chain:
            return (
                "redirect · 302 — too many redirects (to /chain/1 after 10 redirects)", 10,
                "last: GET /chain/2, with Authorization, Cookie"
            )
        }
    }
}

@Suite("Redirects over every transport", .isTimed)
struct RedirectFaultTests {
    /// The cells where a transport differs from Strata's policy; checked inside
    /// `withKnownIssue`. None: both transports leave redirects to Strata.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    static func isPending(_ probe: RedirectProbe, _ transport: TransportKind) -> Bool { false }

    /// Sent with every probe: a `POST` with a body and credentials, to see which of them
    /// survive each redirect.
    static let headers: HTTPFields = [.authorization: "Bearer secret-token", .cookie: "session=abc"]
    /// No probe waits for a deadline: a chain of 12 hops gets room on a loaded machine.
    static let deadline = Duration.seconds(20)
    static let body = Data("ping".utf8)

    @Test(arguments: RedirectProbe.allCases, TransportKind.allCases)
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    func redirectIsFollowedByStrata(_ probe: RedirectProbe, _ transport: TransportKind) async throws {
        try await FaultServer.with { server in
            try await FaultServer.with { other in
                try await transport.with { client in
                    let url = server.url(for: probe.route(on: server, other: other))
                    let (observation, elapsed) = await FaultExchange.run(
                        url, with: FaultExchange.networker(over: client, deadline: Self.deadline), method: .post,
                        headers: Self.headers, body: Self.body)
                    let followed = Array(server.requests.dropFirst()) + other.requests
                    let last = Self.describe(followed.last, crossOrigin: other.requestCount > 0)
                    let expected = probe.expected
                    FaultExchange.report(
                        "redirect: \(probe.testDescription)", transport.rawValue, expected.outcome, "\(observation)",
                        FaultExchange.seconds(elapsed), "\(followed.count) followed", last)
                    #expect(elapsed <= Self.deadline + FaultExchange.margin)
                    TransportFaultTests.expecting(
                        pending: Self.isPending(probe, transport), unobserved: TransportFaultTests.unobserved(transport)
                    ) {
                        #expect("\(observation)" == expected.outcome)
                        #expect(followed.count == expected.followed)
                        #expect(last == expected.last)
                    }
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
        return
            "last: \(request.method) \(request.target)\(origin), with \(carried.isEmpty ? "none of body/Authorization/Cookie" : carried.joined(separator: ", "))"
    }
}
