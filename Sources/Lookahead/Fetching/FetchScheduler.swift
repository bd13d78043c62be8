public import DequeModule

/// The pure state machine that decides which loads run, in which order, and
/// when they stop.
///
/// `FetchScheduler` performs no I/O, reads no clock and starts no task. A driver
/// (``AsyncFetcher`` at run time, the simulator in virtual time) feeds it events —
/// an interest added or withdrawn, a load finished or failed, a retry timer
/// fired — and performs the actions it returns: start a load, cancel a load,
/// reprioritise a running load. Because both drivers run this same code, what
/// the simulator measures is what ships.
///
/// ## Model
/// - An *interest* is one party wanting the value of one key: a prefetch, a cell
///   waiting to display, an `await`ing caller. It carries an opaque `Payload` the
///   driver gets back when the interest is satisfied, failed or withdrawn, and
///   may carry a *deadline*: when its item is predicted to appear, on the
///   driver's timeline (any fixed origin, the same for every deadline).
/// - A *load* is the one piece of work per key that every interest in the key
///   shares (coalescing). A load is wanted while at least one of its interests is
///   *admitted*; it is cancelled only when the last admitted interest leaves
///   (reference-counted cancellation). Its states (`LoadState`): idle,
///   pending (with its place in the queue), running, cancelled but still
///   running, backing off before a retry.
/// - A *group* bundles the interests of one prefetcher: it can be paused, has
///   a priority of its own, and admits at most `admissionLimit` of its
///   interests at a time (Nuke's `ImagePrefetcher` runs two). Interests over the
///   limit wait in the group, FIFO, and do not keep a load alive. The default
///   group admits everything and is never paused. A group can also keep a set
///   of keys with their outcomes (``addKey(_:to:deadline:payload:)``): the
///   bookkeeping a prefetcher needs.
/// - A load runs at the highest priority among its active interests (admitted,
///   in a group that is not paused), and is due at the earliest of their
///   deadlines. Pending loads start highest priority first; within a priority,
///   those with a deadline first, earliest first, then those without one, FIFO
///   (`PendingLoadQueue`). A pending load whose priority is lowered goes to
///   the front of its new priority and one raised goes to the back, so a change
///   of priority never lets a load overtake work that was already waiting at
///   the same level (the rule of Nuke's `TaskQueue`).
/// - At most `maxConcurrentLoads` attempts run at once. A running load that
///   is cancelled keeps its slot until the driver reports that it has really
///   ended, so the limit holds for the work actually executing, not only for
///   the bookkeeping.
/// - A running load may get one second attempt, a *hedge*
///   (``hedge(_:)``), when its driver finds it slow: the hedge takes a slot
///   of its own, the first attempt to succeed delivers to every interest and
///   the other is cancelled (`FetchScheduler+Hedging.swift`).
///
/// ## Invariants
/// - `runningCount <= max(maxConcurrentLoads, count when the limit was lowered)`.
/// - A key has at most one load record; a load is pending iff it has an active
///   interest and is neither running nor backing off; a cancelled load that
///   still runs has a record of its own, no longer the key's.
/// - Every interest is in exactly one load's list and, outside the default
///   group, in exactly one of its group's lists (admitted or waiting).
///
/// `checkInvariants()` verifies these by brute force; tests call it. The
/// scheduler's parts live in `FetchScheduler+*.swift`: identifiers, the
/// records, interests, groups, load outcomes, the slot arena, invariants.
@usableFromInline
package struct FetchScheduler<Key: Hashable, Payload> {
    @usableFromInline var loadSlots: [Key: Int] = [:]
    @usableFromInline var loads: [LoadRecord?] = []
    /// The key of each load slot, apart from the records for the reason
    /// `interests` keeps payloads apart (a cancelled load keeps its key).
    @usableFromInline var loadKeys: [Key?] = []
    @usableFromInline var freeLoads: [Int] = []
    /// Kept apart from `interests` so that an interest record is plain data:
    /// walking and updating records never touches the generic payload.
    @usableFromInline var interests: [InterestRecord] = []
    @usableFromInline var payloads: [Payload?] = []
    @usableFromInline var freeInterests: [Int] = []
    @usableFromInline var groups: [GroupRecord] = []
    /// Each group's keyed interests: key → interest slot.
    @usableFromInline var groupKeys: [[Key: Int]] = []
    @usableFromInline var freeGroups: [Int] = []
    @usableFromInline var queue = PendingLoadQueue()
    @usableFromInline var nextSerial: UInt64 = 0
    @usableFromInline var actions: Deque<Action> = []
    @usableFromInline var touchedGroups: [Int] = []

    /// The most loads that run at once. Raising it starts waiting loads at once;
    /// lowering it lets running loads finish and starts nothing until below.
    public var maxConcurrentLoads: Int {
        didSet {
            precondition(maxConcurrentLoads >= 1, "maxConcurrentLoads must be at least 1, got \(maxConcurrentLoads)")
            settle()
        }
    }

    /// How failed loads are retried.
    public var retryPolicy: RetryPolicy

    @usableFromInline var _runningCount = 0
    @usableFromInline var _backingOffCount = 0
    @usableFromInline var _statistics = FetchStatistics()

    /// Loads running now, cancelled ones that have not ended included.
    @inlinable public var runningCount: Int { _runningCount }
    /// Loads waiting for a free slot.
    @inlinable public var pendingCount: Int { queue.count }
    /// Loads waiting for their retry delay to pass.
    @inlinable public var backingOffCount: Int { _backingOffCount }
    /// Lifetime counters.
    @inlinable public var statistics: FetchStatistics { _statistics }

    /// Creates a scheduler.
    ///
    /// - Parameters:
    ///   - maxConcurrentLoads: the most loads that run at once (at least 1).
    ///   - retryPolicy: how transient failures are retried.
    @inlinable
    public init(maxConcurrentLoads: Int = 6, retryPolicy: RetryPolicy = .default) {
        precondition(maxConcurrentLoads >= 1, "maxConcurrentLoads must be at least 1, got \(maxConcurrentLoads)")
        self.maxConcurrentLoads = maxConcurrentLoads
        self.retryPolicy = retryPolicy
        var defaultGroup = GroupRecord()
        defaultGroup.isLive = true
        groups.append(defaultGroup)
        groupKeys.append([:])
    }

    // MARK: Queries

    /// True when no load is pending, running or backing off.
    ///
    /// Interests waiting in a paused group do not count: nothing will happen
    /// to them until the group resumes.
    /// - Complexity: O(1)
    @inlinable public var isIdle: Bool { _runningCount == 0 && queue.count == 0 && _backingOffCount == 0 }

    /// The number of keys with at least one interest or a load.
    /// - Complexity: O(1)
    @inlinable public var keyCount: Int { loadSlots.count }

    /// The number of live interests in `key`.
    /// - Complexity: O(1)
    @inlinable
    public func interestCount(in key: Key) -> Int {
        guard let slot = loadSlots[key] else { return 0 }
        return loads[slot]!.interestCount
    }

    /// Whether `id` is still waiting for its key.
    /// - Complexity: O(1)
    @inlinable
    public func isLive(_ id: InterestID) -> Bool {
        id.slot < interests.count && interests[id.slot].isLive && interests[id.slot].generation == id.generation
    }

    /// The key of interest `id`, or `nil` once it has ended.
    /// - Complexity: O(1)
    @inlinable
    public func key(of id: InterestID) -> Key? {
        isLive(id) ? loadKeys[interests[id.slot].load] : nil
    }

    /// Whether the load interest `id` waits for is running (its first
    /// attempt, or hedged): what ``phase(of:)`` answers for the interest's
    /// key, without hashing it.
    /// - Complexity: O(1)
    @inlinable
    package func isLoadRunning(forInterest id: InterestID) -> Bool {
        guard isLive(id), let record = loads[interests[id.slot].load] else { return false }
        switch record.state {
        case .running, .hedgeQueued, .hedged: return true
        case .idle, .pending, .backingOff, .cancelled: return false
        }
    }

    /// The earliest deadline among the active interests in `key`'s load,
    /// queued or running.
    /// - Complexity: O(interests in the key).
    @inlinable
    public func earliestDeadline(ofKey key: Key) -> Duration? {
        loadSlots[key].flatMap { wantedDeadline($0) }
    }

    /// The priority of interest `id`, or `nil` once it has ended.
    /// - Complexity: O(1)
    @inlinable
    public func priority(of id: InterestID) -> FetchPriority? {
        isLive(id) ? interests[id.slot].priority : nil
    }

    /// The deadline of interest `id`, or `nil` when it has none or has ended.
    /// - Complexity: O(1)
    @inlinable
    public func deadline(of id: InterestID) -> Duration? {
        isLive(id) ? interests[id.slot].deadline : nil
    }

    /// Where the load of `key` stands.
    public enum Phase: Hashable, Sendable {
        /// The scheduler does not know the key.
        case none
        /// Interests wait for it, none of them active (a paused group, a full one).
        case idle
        /// Waiting for a free slot, at this priority.
        case pending(FetchPriority)
        /// Running at this priority.
        case running(FetchPriority)
        /// Failed, waiting for its retry delay.
        case backingOff
    }

    /// Where the load of `key` stands.
    /// - Complexity: O(1)
    @inlinable
    public func phase(of key: Key) -> Phase {
        guard let slot = loadSlots[key] else { return .none }
        switch loads[slot]!.state {
        case .idle: return .idle
        case .pending(let priority, _): return .pending(priority)
        case .running(_, let priority), .hedgeQueued(_, let priority), .hedged(_, _, let priority):
            return .running(priority)
        case .backingOff: return .backingOff
        case .cancelled: preconditionFailure("phase(of:): a cancelled load is indexed by its key")
        }
    }

    /// The deadline the pending load of `key` is ordered by: the earliest
    /// among its active interests, or `nil` when it has none or is not pending.
    /// - Complexity: O(1)
    @inlinable
    public func deadline(of key: Key) -> Duration? {
        guard let slot = loadSlots[key], case .pending(_, let deadline) = loads[slot]!.state else { return nil }
        return deadline
    }

    /// Takes the next action the driver must perform, if any.
    /// - Complexity: O(1)
    @inlinable
    public mutating func nextAction() -> Action? {
        actions.popFirst()
    }
}

extension FetchScheduler: Sendable where Key: Sendable, Payload: Sendable {}
