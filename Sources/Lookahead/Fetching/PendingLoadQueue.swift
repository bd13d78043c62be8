public import DequeModule

/// The loads waiting for a free slot, in the order they start: the priority
/// queue of `FetchScheduler`.
///
/// Loads are named by their slot in the scheduler's arena. Within a priority,
/// loads with a deadline go first, earliest deadline first; loads without one
/// follow, first in first out. So a scheduler that is never given a deadline
/// orders exactly as a set of per-priority FIFOs does (Nuke's `TaskQueue`).
///
/// Each load placed here gets a *stamp* that breaks ties: stamps from one
/// counter grow for loads placed at the back, from another shrink for loads
/// placed at the front (a load whose priority was lowered). A load whose
/// deadline changes keeps its stamp; one that loses its deadline joins the
/// back of the loads without one.
///
/// Why lazy removal: a load leaves the queue far more often than it reaches
/// its head (a fling withdraws most prefetches it made). Removing only marks
/// the load's entry stale, in O(1); stale entries are skipped when they reach
/// the head and swept out once they outnumber the live ones, which keeps
/// memory proportional to the waiting loads.
///
/// ## Invariants
/// - A slot has at most one live entry: the one whose ticket matches the
///   slot's placement.
/// - `staleFIFOEntries[p]` and `staleDatedEntries[p]` count exactly the
///   entries of priority `p` that are not live.
/// - Each `dated[p]` is a binary min-heap on `(deadline, stamp)`.
@usableFromInline
struct PendingLoadQueue: Sendable {
    /// An entry of a FIFO: a load without a deadline.
    @usableFromInline
    struct FIFOEntry: Sendable {
        @usableFromInline var slot: Int
        @usableFromInline var ticket: UInt64

        @inlinable
        init(slot: Int, ticket: UInt64) {
            self.slot = slot
            self.ticket = ticket
        }
    }

    /// An entry of a deadline heap.
    @usableFromInline
    struct DatedEntry: Sendable {
        @usableFromInline var deadline: Duration
        @usableFromInline var stamp: Int64
        @usableFromInline var slot: Int
        @usableFromInline var ticket: UInt64

        @inlinable
        init(deadline: Duration, stamp: Int64, slot: Int, ticket: UInt64) {
            self.deadline = deadline
            self.stamp = stamp
            self.slot = slot
            self.ticket = ticket
        }

        @inlinable
        func precedes(_ other: DatedEntry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && stamp < other.stamp)
        }
    }

    /// Where a slot's live entry is: `ticket == 0` when it has none.
    @usableFromInline
    struct Placement: Sendable {
        @usableFromInline var ticket: UInt64 = 0
        @usableFromInline var priority = 0
        @usableFromInline var isDated = false
        @usableFromInline var stamp: Int64 = 0
        @usableFromInline var deadline: Duration?

        @inlinable
        init() {}
    }

    @usableFromInline var fifos: [Deque<FIFOEntry>] = Array(repeating: [], count: FetchPriority.allCases.count)
    @usableFromInline var dated: [[DatedEntry]] = Array(repeating: [], count: FetchPriority.allCases.count)
    @usableFromInline var staleFIFOEntries: [Int] = Array(repeating: 0, count: FetchPriority.allCases.count)
    @usableFromInline var staleDatedEntries: [Int] = Array(repeating: 0, count: FetchPriority.allCases.count)
    @usableFromInline var placements: [Placement] = []
    @usableFromInline var nextTicket: UInt64 = 1
    @usableFromInline var nextBackStamp: Int64 = 0
    @usableFromInline var nextFrontStamp: Int64 = -1
    /// The loads waiting.
    @usableFromInline var count = 0

    @inlinable
    init() {}

    /// Whether `slot` waits here.
    /// - Complexity: O(1)
    @inlinable
    func contains(_ slot: Int) -> Bool {
        slot < placements.count && placements[slot].ticket != 0
    }

    /// The deadline `slot` waits by, if it waits with one.
    /// - Complexity: O(1)
    @inlinable
    func deadline(of slot: Int) -> Duration? {
        contains(slot) ? placements[slot].deadline : nil
    }

    /// Places a load that is not in the queue.
    ///
    /// - Parameters:
    ///   - atFront: ahead of the loads of its priority that have no earlier
    ///     deadline (a load whose priority was lowered, or a retry), rather
    ///     than behind them.
    /// - Complexity: O(log n) with a deadline, O(1) amortized without.
    @inlinable
    mutating func insert(_ slot: Int, priority: FetchPriority, deadline: Duration?, atFront: Bool) {
        let stamp: Int64
        if atFront {
            stamp = nextFrontStamp
            nextFrontStamp &-= 1
        } else {
            stamp = nextBackStamp
            nextBackStamp &+= 1
        }
        place(slot, priority: priority.rawValue, deadline: deadline, stamp: stamp, atFront: atFront)
        count += 1
    }

    /// Moves a waiting load to its new deadline, within its priority: it keeps
    /// its stamp among the loads with a deadline, and goes to the back of
    /// those without one when its deadline is gone.
    /// - Complexity: O(log n)
    @inlinable
    mutating func updateDeadline(of slot: Int, to deadline: Duration?) {
        let placement = placements[slot]
        precondition(placement.ticket != 0, "updateDeadline(of:to:): load \(slot) is not queued")
        // Unplaced first, so that a sweep the removal triggers sees the old entry as stale.
        placements[slot].ticket = 0
        markStale(placement)
        if deadline != nil {
            place(slot, priority: placement.priority, deadline: deadline, stamp: placement.stamp, atFront: false)
        } else {
            let stamp = nextBackStamp
            nextBackStamp &+= 1
            place(slot, priority: placement.priority, deadline: nil, stamp: stamp, atFront: false)
        }
    }

    /// Takes a load out of the queue.
    /// - Complexity: O(1) amortized.
    @inlinable
    mutating func remove(_ slot: Int) {
        let placement = placements[slot]
        precondition(placement.ticket != 0, "remove: load \(slot) is not queued")
        placements[slot].ticket = 0
        count -= 1
        markStale(placement)
    }

    /// Takes the load that starts next: the highest priority, then the
    /// earliest deadline, then the smallest stamp.
    /// - Complexity: O(log n) amortized.
    @inlinable
    mutating func popFirst() -> Int? {
        guard count > 0 else { return nil }
        var priority = FetchPriority.allCases.count - 1
        while priority >= 0 {
            while !dated[priority].isEmpty {
                let entry = popHeap(priority)
                if placements[entry.slot].ticket == entry.ticket {
                    return take(entry.slot)
                }
                staleDatedEntries[priority] -= 1
            }
            while let entry = fifos[priority].popFirst() {
                if placements[entry.slot].ticket == entry.ticket {
                    return take(entry.slot)
                }
                staleFIFOEntries[priority] -= 1
            }
            priority -= 1
        }
        preconditionFailure("the pending load queue counts \(count) loads and holds none")
    }

    // MARK: Internals

    @inlinable
    mutating func take(_ slot: Int) -> Int {
        placements[slot].ticket = 0
        count -= 1
        return slot
    }

    @inlinable
    mutating func place(_ slot: Int, priority: Int, deadline: Duration?, stamp: Int64, atFront: Bool) {
        while placements.count <= slot { placements.append(Placement()) }
        let ticket = nextTicket
        nextTicket &+= 1
        placements[slot].ticket = ticket
        placements[slot].priority = priority
        placements[slot].isDated = deadline != nil
        placements[slot].stamp = stamp
        placements[slot].deadline = deadline
        if let deadline {
            pushHeap(DatedEntry(deadline: deadline, stamp: stamp, slot: slot, ticket: ticket), priority)
        } else if atFront {
            fifos[priority].prepend(FIFOEntry(slot: slot, ticket: ticket))
        } else {
            fifos[priority].append(FIFOEntry(slot: slot, ticket: ticket))
        }
    }

    /// Accounts for an entry that is now stale; sweeps its queue when stale
    /// entries outnumber live ones, which keeps removal amortized O(1).
    @inlinable
    mutating func markStale(_ placement: Placement) {
        let priority = placement.priority
        if placement.isDated {
            staleDatedEntries[priority] += 1
            let stale = staleDatedEntries[priority]
            guard stale > 32, stale * 2 > dated[priority].count else { return }
            let live = dated[priority].filter { placements[$0.slot].ticket == $0.ticket }
            dated[priority] = live
            for index in stride(from: live.count / 2 - 1, through: 0, by: -1) {
                siftDown(index, priority)
            }
            staleDatedEntries[priority] = 0
        } else {
            staleFIFOEntries[priority] += 1
            let stale = staleFIFOEntries[priority]
            guard stale > 32, stale * 2 > fifos[priority].count else { return }
            let entries = fifos[priority]
            fifos[priority].removeAll(keepingCapacity: true)
            for entry in entries where placements[entry.slot].ticket == entry.ticket {
                fifos[priority].append(entry)
            }
            staleFIFOEntries[priority] = 0
        }
    }

    @inlinable
    mutating func pushHeap(_ entry: DatedEntry, _ priority: Int) {
        dated[priority].append(entry)
        var child = dated[priority].count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard dated[priority][child].precedes(dated[priority][parent]) else { return }
            dated[priority].swapAt(child, parent)
            child = parent
        }
    }

    @inlinable
    mutating func popHeap(_ priority: Int) -> DatedEntry {
        let last = dated[priority].count - 1
        dated[priority].swapAt(0, last)
        let entry = dated[priority].removeLast()
        siftDown(0, priority)
        return entry
    }

    @inlinable
    mutating func siftDown(_ start: Int, _ priority: Int) {
        let count = dated[priority].count
        var parent = start
        while true {
            var first = parent
            let left = 2 * parent + 1
            let right = left + 1
            if left < count, dated[priority][left].precedes(dated[priority][first]) { first = left }
            if right < count, dated[priority][right].precedes(dated[priority][first]) { first = right }
            guard first != parent else { return }
            dated[priority].swapAt(parent, first)
            parent = first
        }
    }

    /// Verifies the invariants by brute force (for tests).
    /// - Complexity: O(entries)
    @inlinable
    func checkInvariants() {
        var live = 0
        for priority in 0..<FetchPriority.allCases.count {
            let liveFIFO = fifos[priority].count { placements[$0.slot].ticket == $0.ticket }
            precondition(
                fifos[priority].count - liveFIFO == staleFIFOEntries[priority],
                "priority \(priority)'s stale FIFO count is wrong")
            let liveDated = dated[priority].count { placements[$0.slot].ticket == $0.ticket }
            precondition(
                dated[priority].count - liveDated == staleDatedEntries[priority],
                "priority \(priority)'s stale deadline count is wrong")
            for index in dated[priority].indices.dropFirst() {
                precondition(
                    !dated[priority][index].precedes(dated[priority][(index - 1) / 2]),
                    "priority \(priority)'s deadline heap is out of order at \(index)")
            }
            live += liveFIFO + liveDated
        }
        precondition(live == count, "the queue holds \(live) live entries and counts \(count)")
        precondition(
            placements.count { $0.ticket != 0 } == count,
            "\(count) loads counted, \(placements.count { $0.ticket != 0 }) placed")
    }
}
