import Foundation
import HTTPTypes

/// One registered answer of a ``MockTransport``: which requests it takes and what it
/// does with them.
struct MockStub: Sendable {
    /// Which requests a stub takes.
    enum Route: Sendable {
        /// Requests with this method whose path matches and whose query holds these pairs.
        case path(method: HTTPRequest.Method, pattern: MockPathPattern, query: [String: String])
        /// Any request; the action decides.
        case custom
    }

    /// What a stub answers.
    enum Action: Sendable {
        /// These responses in order; the last one repeats.
        case responses([MockResponse])
        /// The response this handler makes from the request and the path parameters.
        case handler(@Sendable (RecordedRequest, [String: String]) async throws -> MockResponse)
        /// The response this closure makes, or `nil` to pass the request on.
        case custom(@Sendable (HTTPRequest, Data) async throws -> MockResponse?)
    }

    /// Distinguishes stubs in the call counts.
    let id: Int
    let route: Route
    let action: Action

    /// A line naming the stub in error messages: `GET /users/:id?page=2`.
    var description: String {
        switch route {
        case .custom:
            return "closure stub #\(id)"
        case .path(let method, let pattern, let query):
            let queryText = query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            return "\(method.rawValue) \(pattern)" + (queryText.isEmpty ? "" : "?\(queryText)")
        }
    }

    /// The path parameters when the stub's route takes `request`, `nil` when it does not.
    /// Custom routes take every request and capture nothing.
    func match(_ request: HTTPRequest) -> [String: String]? {
        switch route {
        case .custom:
            return [:]
        case .path(let method, let pattern, let query):
            guard request.method == method else { return nil }
            let target = MockRequestTarget(request.path)
            guard target.contains(query) else { return nil }
            return pattern.match(target.path)
        }
    }
}
