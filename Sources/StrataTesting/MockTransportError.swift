import HTTPTypes

/// A mistake in a test's use of ``MockTransport``, reported loudly.
public enum MockTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No stub took the request. `path` is the request's path and query;
    /// `registeredStubs` describes the stubs, latest first.
    case noStub(method: HTTPRequest.Method, path: String, registeredStubs: [String])
    /// The stub that took the request was registered with an empty list of responses.
    case noResponses(stub: String)
    /// These stubs, latest first, never answered a request.
    case stubsNotCalled([String])
    /// A fixture file could not be found or read.
    case fixtureUnavailable(String)
    /// A response body could not be encoded.
    case encodingFailed(String)

    /// A description naming the request and, for a missing stub, every registered stub.
    public var description: String {
        switch self {
        case .noStub(let method, let path, let stubs):
            let registered =
                stubs.isEmpty
                ? "No stubs are registered."
                : "Registered stubs, latest first:\n" + stubs.map { "  - \($0)" }.joined(separator: "\n")
            return "MockTransport has no stub for \(method.rawValue) \(path). \(registered)"
        case .noResponses(let stub):
            return "MockTransport stub \(stub) was registered with no responses."
        case .stubsNotCalled(let stubs):
            return "MockTransport stubs never called: " + stubs.joined(separator: ", ")
        case .fixtureUnavailable(let reason):
            return "MockTransport fixture unavailable: \(reason)"
        case .encodingFailed(let reason):
            return "MockTransport could not encode a response body: \(reason)"
        }
    }
}
