import Strata

/// Runs an operation against a deadline.
enum DeadlineRace {
    /// Runs `operation`, cancelling it and throwing ``TransportError/Kind/timedOut`` if
    /// `deadline` passes first; without a deadline, just runs it.
    static func run<Value: Sendable>(
        until deadline: ContinuousClock.Instant?,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        guard let deadline else { return try await operation() }
        return try await withThrowingTaskGroup(of: Value.self) { group in
            group.addTask(operation: operation)
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                throw TransportError(.timedOut)
            }
            // Whichever child ends first decides; the other is cancelled and awaited.
            defer { group.cancelAll() }
            guard let value = try await group.next() else { throw CancellationError() }
            return value
        }
    }
}
