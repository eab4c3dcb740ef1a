/// Where a middleware step leaves what it learned about one call (a ``RetrySummary``, a
/// ``CacheOutcome``) for the ``Networker``, which puts it on the call's response or
/// error. One per call and kind, held by the ``MiddlewareContext``, created only when
/// the client has the step that fills it. Copies share what is recorded (a context is
/// copied down the pipeline).
struct CallRecord<Value: Sendable>: Sendable {
    private let stored = Locked<Value?>(nil)

    /// An empty record.
    init() {}

    /// What was recorded last, if anything.
    var value: Value? { stored.withLock { $0 } }

    /// Records `value`, replacing what was there.
    func record(_ value: Value) {
        stored.withLock { $0 = value }
    }

    /// Changes what was recorded (`nil` when nothing was), under the record's lock.
    func update(_ body: (inout Value?) -> Void) {
        stored.withLock(body)
    }
}
