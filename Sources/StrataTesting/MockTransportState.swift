/// Everything a ``MockTransport`` remembers: its stubs, how often each one answered,
/// the requests it received, and its WebSocket connections.
struct MockTransportState {
    /// The stubs in registration order; matching walks them from the end.
    var stubs: [MockStub] = []
    /// How many responses each stub (by ``MockStub/id``) has served.
    var callCounts: [Int: Int] = [:]
    /// Every request received, oldest first.
    var requests: [RecordedRequest] = []
    /// The WebSocket stubs in registration order; matching walks them from the end.
    var webSocketStubs: [MockWebSocketStub] = []
    /// The peer of every WebSocket connection opened, oldest first.
    var webSocketPeers: [MockWebSocketPeer] = []
    /// The identifier the next stub gets.
    var nextStubID = 0
}
