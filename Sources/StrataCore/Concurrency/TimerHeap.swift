/// The pending ``DeadlineTimer``s ordered by deadline: a binary min-heap in which every
/// timer knows its own position (``DeadlineTimer/heapIndex``), so that a timer is
/// removed from anywhere in O(log n) the moment its call ends.
///
/// A plain value with no locking and no I/O; ``DeadlineScheduler`` owns one behind its
/// lock and sets the system timer from what it returns.
struct TimerHeap {
    private var timers: [DeadlineTimer] = []

    /// The earliest deadline, or `nil` when no timer is pending.
    var earliestDeadline: ContinuousClock.Instant? { timers.first?.deadline }

    /// How many timers are due after `instant` (a linear scan, for tests).
    func count(dueAfter instant: ContinuousClock.Instant) -> Int {
        timers.count { $0.deadline > instant }
    }

    /// Whether `timer` is pending.
    func contains(_ timer: DeadlineTimer) -> Bool {
        timer.heapIndex != nil
    }

    /// Adds `timer`.
    /// - Returns: whether it is now the earliest.
    mutating func insert(_ timer: DeadlineTimer) -> Bool {
        timer.heapIndex = timers.count
        timers.append(timer)
        siftUp(timers.count - 1)
        return timer.heapIndex == 0
    }

    /// Removes `timer` if it is pending.
    mutating func remove(_ timer: DeadlineTimer) {
        guard let index = timer.heapIndex else { return }
        let last = timers.count - 1
        if index != last { swapEntries(index, last) }
        timers.removeLast()
        timer.heapIndex = nil
        if index < timers.count {
            siftDown(index)
            siftUp(index)
        }
    }

    /// Removes and returns every timer whose deadline is at or before `now`, earliest first.
    mutating func removeDue(at now: ContinuousClock.Instant) -> [DeadlineTimer] {
        var due: [DeadlineTimer] = []
        while let first = timers.first, first.deadline <= now {
            remove(first)
            due.append(first)
        }
        return due
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard timers[child].deadline < timers[parent].deadline else { return }
            swapEntries(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < timers.count, timers[left].deadline < timers[smallest].deadline { smallest = left }
            if right < timers.count, timers[right].deadline < timers[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            swapEntries(parent, smallest)
            parent = smallest
        }
    }

    private mutating func swapEntries(_ a: Int, _ b: Int) {
        timers.swapAt(a, b)
        timers[a].heapIndex = a
        timers[b].heapIndex = b
    }
}
