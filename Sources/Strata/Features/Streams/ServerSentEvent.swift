/// One event of a `text/event-stream` body, as the WHATWG HTML standard's
/// "Server-sent events" section dispatches it.
///
/// Read from any body with ``MessageBody/serverSentEvents(maximumEventSize:)``, or from
/// a server with `Networker.events(_:)`, which also reconnects.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type (the block's `event` field); `nil` when the block named none or
    /// an empty one, which the standard reads as `message`.
    public var event: String?
    /// The block's `data` lines joined with line feeds.
    public var data: String
    /// The last event ID in force when the event was dispatched (set by this block's
    /// `id` field or an earlier one); `nil` when none was set or it was set empty.
    public var id: String?
    /// The reconnection time a valid `retry` field of this event's block asked for;
    /// `nil` when the block had none.
    public var retry: Duration?

    /// Creates an event.
    public init(event: String? = nil, data: String, id: String? = nil, retry: Duration? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}
