// Which decodes run, pure: at most a slot per core, the most urgent first
// (a visible cell's before a prefetch's), first come first served within a
// priority, and a decode withdrawn before its turn never runs. The
// DecodeQueue performs it; tests drive it directly.

/// The decodes waiting and running: a pure state machine.
package struct DecodeSchedule: Sendable {
    /// The most decodes that run at once.
    package let slots: Int
    package private(set) var running = 0
    /// Waiting decodes by priority (highest first), each FIFO.
    private var waiting: [FetchPriority: [Int]] = [:]
    private var priorities: [Int: FetchPriority] = [:]

    /// - Precondition: `slots` is at least 1.
    package init(slots: Int) {
        precondition(slots >= 1, "DecodeSchedule: slots must be at least 1, got \(slots)")
        self.slots = slots
    }

    /// Decode `id` asks to run at `priority`: whether it runs now (a slot
    /// was free) or waits.
    package mutating func request(_ id: Int, priority: FetchPriority) -> Bool {
        if running < slots, waiting.values.allSatisfy(\.isEmpty) {
            running += 1
            return true
        }
        waiting[priority, default: []].append(id)
        priorities[id] = priority
        return false
    }

    /// A running decode finished: the decode to run next, if one waits.
    package mutating func finished() -> Int? {
        precondition(running > 0, "DecodeSchedule: a decode finished that was not running")
        running -= 1
        return next()
    }

    /// Decode `id` was withdrawn while it waited: it will not run.
    /// - Returns: whether it was waiting.
    package mutating func withdraw(_ id: Int) -> Bool {
        guard let priority = priorities.removeValue(forKey: id) else { return false }
        waiting[priority]?.removeAll { $0 == id }
        return true
    }

    private mutating func next() -> Int? {
        for priority in FetchPriority.allCases.reversed() {
            guard var queue = waiting[priority], !queue.isEmpty else { continue }
            let id = queue.removeFirst()
            waiting[priority] = queue
            priorities[id] = nil
            running += 1
            return id
        }
        return nil
    }

    /// How many decodes wait.
    package var waitingCount: Int { priorities.count }
}
