import Logging

/// What middleware knows about the request in flight besides the request itself.
public struct MiddlewareContext: Sendable {
    /// The attempt number, starting at 1; retrying middleware increments it.
    public var attempt: Int
    /// When the whole exchange must be over, or `nil` for no limit.
    public var deadline: ContinuousClock.Instant?
    /// The endpoint's attributes (see ``Endpoint/attributes``), for middleware to act on.
    public var attributes: [String: String]
    /// The logger for this request, with a `strata.request` metadata id.
    public var logger: Logger

    /// Creates a context.
    public init(
        attempt: Int = 1,
        deadline: ContinuousClock.Instant? = nil,
        attributes: [String: String] = [:],
        logger: Logger = Logger(label: "strata")
    ) {
        self.attempt = attempt
        self.deadline = deadline
        self.attributes = attributes
        self.logger = logger
    }
}
