/// A request as the fault server received it, before it chose how to (mis)behave.
public struct RecordedRequest: Sendable, Equatable, CustomStringConvertible {
    /// One header field line, as sent.
    public struct HeaderField: Sendable, Equatable {
        /// The field name, in the case the client sent.
        public let name: String
        /// The field value, without leading or trailing whitespace.
        public let value: String
    }

    /// Which connection carried the request: 1 for the server's first connection, 2 for
    /// the next, and so on; requests on one kept-alive connection share it.
    public let connection: Int
    /// The method, for example `GET`.
    public let method: String
    /// The request target as sent: the path and query, for example `/chain/3?x=1`.
    public let target: String
    /// The header fields, in the order they arrived.
    public let headerFields: [HeaderField]
    /// The body (read by its `Content-Length`); empty when there is none.
    public let body: [UInt8]

    /// The target's path, without the query.
    public var path: String {
        String(target.prefix { $0 != "?" })
    }

    /// The target's query, without the `?`; `nil` when there is none.
    public var query: String? {
        target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) }
    }

    /// The values of every field named `name` (compared without case), in order.
    public func values(for name: String) -> [String] {
        headerFields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The value of the first field named `name` (compared without case), if any.
    public func value(for name: String) -> String? {
        values(for: name).first
    }

    /// `GET /ok (connection 1)`, for test failure messages.
    public var description: String {
        "\(method) \(target) (connection \(connection))"
    }
}
