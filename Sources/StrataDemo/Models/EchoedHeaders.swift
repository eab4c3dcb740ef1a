/// The request header fields the server saw: `{"headers": {name: value}}`, names lowercased.
public struct EchoedHeaders: Decodable, Sendable, Equatable {
    /// The fields by lowercased name; repeated fields joined with `, `.
    public let headers: [String: String]
}
