import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// A protected route for authentication tests, which counts what it accepts and rejects.
///
/// `GET /auth/protected` answers `200` with the body `ok <token>` when the request carries
/// `Authorization: Bearer <token>` with the accepted token (``accept(_:)``), and `401`
/// with `WWW-Authenticate: Bearer` and the body `unauthorized` otherwise (always, while
/// no token is accepted).
///
/// ```swift
/// let auth = AuthRoutes(acceptedToken: "fresh-1")
/// let body = try await TestServer.with(configure: { auth.register(on: $0) }) { server in
///     let networker = Networker(transport: transport, middleware: [HeadersMiddleware(["Authorization": "Bearer fresh-1"])])
///     return try await networker.send(Endpoint<String>(RequestDescription(route: try server.baseURL + AuthRoutes.path)))
/// }
/// // body == "ok fresh-1", auth.accepted == 1
/// ```
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public final class AuthRoutes: Sendable {
    /// The path of the protected route.
    public static let path = "/auth/protected"

    private struct State {
        var acceptedToken: String?
        var accepted = 0
        var rejected = 0
    }

    private let state: NIOLockedValueBox<State>

    /// Creates the routes accepting `acceptedToken`, or nothing for `nil`.
    public init(acceptedToken: String?) {
        state = NIOLockedValueBox(State(acceptedToken: acceptedToken))
    }

    /// Accepts `token` from now on, and no other; `nil` accepts nothing.
    public func accept(_ token: String?) {
        state.withLockedValue { $0.acceptedToken = token }
    }

    /// How many requests got a `200`.
    public var accepted: Int { state.withLockedValue { $0.accepted } }

    /// How many requests got a `401`.
    public var rejected: Int { state.withLockedValue { $0.rejected } }

    /// Adds the route to `router` (pass it as ``TestServer/start(configure:)``'s `configure`).
    public func register(on router: Router<BasicRequestContext>) {
        router.get("auth/protected") { request, _ in
            let token = request.headers[.authorization].flatMap { value in
                value.hasPrefix("Bearer ") ? String(value.dropFirst("Bearer ".count)) : nil
            }
            let isAccepted = self.state.withLockedValue { state in
                let isAccepted = token != nil && token == state.acceptedToken
                if isAccepted { state.accepted += 1 } else { state.rejected += 1 }
                return isAccepted
            }
            guard isAccepted, let token else {
                return Response(
                    status: .unauthorized, headers: [.wwwAuthenticate: "Bearer", .contentType: "text/plain"],
                    body: .init(byteBuffer: ByteBuffer(string: "unauthorized")))
            }
            return EchoRoutes.text("ok \(token)", status: .ok, type: "text/plain")
        }
    }
}
