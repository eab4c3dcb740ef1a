/// Everything a ``MockTransport`` remembers: its stubs, how often each one answered,
/// and the requests it received.
struct MockTransportState {
    /// The stubs in registration order; matching walks them from the end.
    var stubs: [MockStub] = []
    /// How many responses each stub (by ``MockStub/id``) has served.
    var callCounts: [Int: Int] = [:]
    /// Every request received, oldest first.
    var requests: [RecordedRequest] = []
    /// The identifier the next stub gets.
    var nextStubID = 0
}
