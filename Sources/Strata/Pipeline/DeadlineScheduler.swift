import Dispatch
import Foundation

/// The process-wide clock behind every ``ExchangeTimer``: a min-heap of pending timers
/// by deadline, and one `DispatchSourceTimer` set for the earliest of them.
///
/// A `DispatchSourceTimer` per request costs system calls and thread wake-ups on every
/// arm and cancel (measured: three times the CPU of the rest of a request over an
/// in-memory transport). Here, adding a timer is a lock and a heap insertion, and the
/// system timer is only re-armed when the new deadline is the earliest one (under a
/// steady load with one timeout, almost never); removing a timer is a lock and a heap
/// removal, and the system timer is left alone (if it was the earliest, the next
/// firing finds nothing due and re-arms for the new earliest).
///
/// `@unchecked Sendable`: `heap`, `armedFor` and every timer's
/// ``ExchangeTimer/heapIndex`` are only touched while `lock` is held; `source` is
/// created once and only rescheduled under `lock`.
final class DeadlineScheduler: @unchecked Sendable {
    /// The scheduler every timer of the process uses.
    static let shared = DeadlineScheduler()

    /// How late a firing may be, which lets the system coalesce wake-ups.
    static let leeway = DispatchTimeInterval.milliseconds(2)

    private let lock = NSLock()
    private var heap: [ExchangeTimer] = []
    /// When `source` is set to fire, `nil` when it is idle.
    private var armedFor: ContinuousClock.Instant?
    private let source: any DispatchSourceTimer

    private init() {
        source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .distantFuture, leeway: Self.leeway)
        source.setEventHandler { [unowned self] in fireDueTimers() }
        source.activate()
    }

    /// Whether `timer` is still pending.
    func contains(_ timer: ExchangeTimer) -> Bool {
        lock.withLock { timer.heapIndex != nil }
    }

    /// Schedules `timer` for its deadline.
    func add(_ timer: ExchangeTimer) {
        lock.withLock {
            timer.heapIndex = heap.count
            heap.append(timer)
            siftUp(heap.count - 1)
            if armedFor.map({ timer.deadline < $0 }) ?? true {
                arm(for: timer.deadline)
            }
        }
    }

    /// Removes `timer` if it is still pending; it will not fire.
    func remove(_ timer: ExchangeTimer) {
        lock.withLock {
            guard let index = timer.heapIndex else { return }
            let last = heap.count - 1
            if index != last {
                heap.swapAt(index, last)
                heap[index].heapIndex = index
            }
            heap.removeLast()
            timer.heapIndex = nil
            if index < heap.count {
                siftDown(index)
                siftUp(index)
            }
        }
    }

    /// Takes every timer that is due out of the heap, re-arms for the next one, then
    /// fires them outside the lock.
    private func fireDueTimers() {
        let due: [ExchangeTimer] = lock.withLock {
            let now = ContinuousClock.now
            var due: [ExchangeTimer] = []
            while let first = heap.first, first.deadline <= now {
                due.append(first)
                let last = heap.removeLast()
                first.heapIndex = nil
                if !heap.isEmpty {
                    heap[0] = last
                    last.heapIndex = 0
                    siftDown(0)
                }
            }
            armedFor = nil
            if let next = heap.first {
                arm(for: next.deadline)
            } else {
                source.schedule(deadline: .distantFuture, leeway: Self.leeway)
            }
            return due
        }
        for timer in due { timer.fire() }
    }

    /// Sets the system timer for `deadline`. Called with `lock` held.
    private func arm(for deadline: ContinuousClock.Instant) {
        armedFor = deadline
        let remaining = ContinuousClock.now.duration(to: deadline)
        source.schedule(deadline: .now() + Self.dispatchInterval(remaining), leeway: Self.leeway)
    }

    private func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { return }
            swapEntries(child, parent)
            child = parent
        }
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            swapEntries(parent, smallest)
            parent = smallest
        }
    }

    private func swapEntries(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        heap[a].heapIndex = a
        heap[b].heapIndex = b
    }

    /// `duration` for `DispatchTime` arithmetic, zero when negative, saturating.
    static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return .nanoseconds(0) }
        guard seconds < Int64(Int.max / 1_000_000_000) - 1 else { return .never }
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
