/// An action called once at a deadline unless cancelled first: how a transport bounds its
/// own requests (``Transport/enforcesDeadline``) without a task per request. An entry in
/// the process-wide ``DeadlineScheduler``, as every deadline of Strata's is: arming and
/// cancelling it cost a lock and a heap operation.
package struct DeadlineAlarm: Sendable {
    private let timer: DeadlineTimer

    /// Calls `action` at `deadline` (at once, from another thread, when it has passed),
    /// unless ``cancel()`` comes first.
    package init(deadline: ContinuousClock.Instant, action: @escaping @Sendable () -> Void) {
        timer = DeadlineTimer(deadline: deadline, onFire: action)
    }

    /// When the action is due.
    package var deadline: ContinuousClock.Instant { timer.deadline }

    /// Disarms the alarm: its action is not called, unless the deadline passed and its
    /// call is already under way (it then runs once, concurrently). Idempotent.
    package func cancel() {
        timer.cancel()
    }
}
