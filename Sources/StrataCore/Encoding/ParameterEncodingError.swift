/// Parameters could not be encoded for a request.
public struct ParameterEncodingError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for example "form parameters must be an object, found an array".
    public let reason: String

    /// Creates an error with a reason.
    public init(reason: String) {
        self.reason = reason
    }

    /// A one-line description for logs.
    public var description: String { "cannot encode parameters: \(reason)" }
}
