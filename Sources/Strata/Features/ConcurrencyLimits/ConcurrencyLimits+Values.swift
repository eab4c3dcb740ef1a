// The concurrency limit's per-call values, under its own key.

/// Where a call stands in a ``ConcurrencyLimitMiddleware``'s queue.
enum QueuePriorityKey: CallValueKey {
    typealias Value = Int
}

extension Endpoint {
    /// Where this call stands in a ``ConcurrencyLimitMiddleware``'s queue: higher goes
    /// first, equal in arrival order; `nil` is 0.
    public var queuePriority: Int? {
        get { options[QueuePriorityKey.self] }
        set { options[QueuePriorityKey.self] = newValue }
    }

    /// Where this call stands in a ``ConcurrencyLimitMiddleware``'s queue (``queuePriority``).
    public func queuePriority(_ priority: Int) -> Endpoint {
        option(QueuePriorityKey.self, priority)
    }
}

extension MiddlewareContext {
    /// The call's ``Endpoint/queuePriority``, 0 when it has none.
    public var queuePriority: Int {
        get { options[QueuePriorityKey.self] ?? 0 }
        set { options[QueuePriorityKey.self] = newValue }
    }
}
