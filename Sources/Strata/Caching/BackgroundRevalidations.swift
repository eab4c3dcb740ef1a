/// A revalidation a call owes its cache: it served a stale response within
/// `stale-while-revalidate`. The ``Networker`` starts it when the call's exchange ends.
struct DueRevalidation: Sendable {
    /// The stored response's key.
    let key: CacheKey
    /// Where it runs, one per key.
    let revalidations: BackgroundRevalidations
    /// How long it may take at most.
    let timeout: Duration
}

/// The background revalidations of one cache: at most one task per key, each removed
/// when it ends.
final class BackgroundRevalidations: Sendable {
    private let tasks = Locked<[CacheKey: Task<Void, Never>]>([:])

    /// How many are under way.
    var count: Int { tasks.withLock { $0.count } }

    /// Runs `work` in a task of its own unless one runs for `key` already.
    func start(_ key: CacheKey, _ work: @escaping @Sendable () async -> Void) {
        tasks.withLock { tasks in
            guard tasks[key] == nil else { return }
            // The task removes itself under the same lock, so never before it was added.
            tasks[key] = Task {
                await work()
                self.tasks.withLock { _ = $0.removeValue(forKey: key) }
            }
        }
    }

    /// Returns once none is under way.
    func waitForAll() async {
        while let task = tasks.withLock({ $0.values.first }) {
            await task.value
        }
    }
}
