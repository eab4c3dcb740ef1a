/// Work a client's calls left for after them (``MiddlewareContext/afterCall(id:_:)``): a
/// cache's background revalidation, say. Each piece runs in a task of its own, at most one
/// per id at a time, and is forgotten when it ends; nothing here outlives its work.
///
/// One per ``Networker``, shared by its copies. Work should bound its own time (a
/// revalidation runs within a timeout); to stop a client, ``cancelAll()`` cancels what is
/// under way and ``waitForAll()`` waits for it to end.
public final class BackgroundWork: Sendable {
    private struct State {
        var tasks: [ID: Task<Void, Never>] = [:]
        var isCancelled = false
    }

    private let state = Locked(State())

    init() {}

    /// How many pieces of work are under way.
    public var count: Int { state.withLock { $0.tasks.count } }

    /// Runs `work` in a task of its own, unless work with the same `id` is under way or
    /// ``cancelAll()`` was called.
    func start(id: ID, _ work: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard !state.isCancelled, state.tasks[id] == nil else { return }
            // The task removes itself under the same lock, so never before it was added.
            state.tasks[id] = Task {
                await work()
                self.state.withLock { _ = $0.tasks.removeValue(forKey: id) }
            }
        }
    }

    /// Returns once no work is under way: what was started before and during the wait
    /// has ended.
    public func waitForAll() async {
        while let task = state.withLock({ $0.tasks.values.first }) {
            await task.value
        }
    }

    /// Cancels the work under way and refuses new work: the client is being shut down.
    public func cancelAll() {
        let tasks = state.withLock { state in
            state.isCancelled = true
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
    }
}

extension BackgroundWork {
    /// What tells pieces of work apart: any `Hashable` and `Sendable` value.
    struct ID: Hashable, Sendable {
        private let value: any Hashable & Sendable

        init(_ value: some Hashable & Sendable) {
            self.value = value
        }

        static func == (lhs: ID, rhs: ID) -> Bool { AnyHashable(lhs.value) == AnyHashable(rhs.value) }

        func hash(into hasher: inout Hasher) { AnyHashable(value).hash(into: &hasher) }
    }
}
