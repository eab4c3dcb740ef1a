/// One event of the demo's streamed chat completion, in the shape chat-completion APIs
/// use: `{"id", "choices": [{"index", "delta": {"content"}}]}`.
public struct ChatChunk: Decodable, Sendable, Equatable {
    /// One choice's increment.
    public struct Choice: Decodable, Sendable, Equatable {
        /// What the choice adds.
        public struct Delta: Decodable, Sendable, Equatable {
            /// The next piece of text, if this event carries one.
            public let content: String?
        }
        /// Which choice.
        public let index: Int
        /// What it adds.
        public let delta: Delta
    }

    /// The completion's id.
    public let id: String
    /// The increments, one a choice.
    public let choices: [Choice]

    /// The text this event adds to the first choice.
    public var text: String { choices.first?.delta.content ?? "" }
}

/// A notification of the demo's `/notifications` event stream: `{"id", "text",
/// "connection"}`, where `connection` is the server's count of the connection that
/// delivered it.
public struct Notice: Decodable, Sendable, Equatable {
    /// The notification's number, also its event ID.
    public let id: Int
    /// What it says.
    public let text: String
    /// Which connection of the stream delivered it, from 1.
    public let connection: Int
}
