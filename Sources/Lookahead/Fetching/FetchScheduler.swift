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
///   driver gets back when the interest is satisfied, failed or withdrawn.
/// - A *load* is the one piece of work per key that every interest in the key
///   shares (coalescing). A load is wanted while at least one of its interests is
///   *admitted*; it is cancelled only when the last admitted interest leaves
///   (reference-counted cancellation).
/// - A *group* bundles the interests of one prefetcher: it can be paused, has
///   a priority of its own, and admits at most `admissionLimit` of its
///   interests at a time (Nuke's `ImagePrefetcher` runs two). Interests over the
///   limit wait in the group, FIFO, and do not keep a load alive. The default
///   group admits everything and is never paused.
/// - A load runs at the highest priority among its active interests (admitted,
///   in a group that is not paused). Pending loads start highest priority first,
///   FIFO within a priority; a pending load whose priority is lowered goes to
///   the front of its new bucket and one raised goes to the back, so a change of
///   priority never lets a load overtake work that was already waiting at the
///   same level (the rule of Nuke's `TaskQueue`).
/// - At most `maxConcurrentLoads` loads run at once. A running load that is
///   cancelled keeps its slot until the driver reports that it has really
///   ended, so the limit holds for the work actually executing, not only for
///   the bookkeeping.
///
/// ## Invariants
/// - `runningCount <= max(maxConcurrentLoads, count when the limit was lowered)`.
/// - A key has at most one load record; a load is pending iff it has an active
///   interest and is neither running nor backing off.
/// - Every interest is in exactly one load's list and, outside the default
///   group, in exactly one of its group's lists (admitted or waiting).
///
/// `checkInvariants()` verifies these by brute force; tests call it.
public struct FetchScheduler<Key: Hashable, Payload> {
    // MARK: Identifiers

    /// Identifies one interest while it lives.
    public struct InterestID: Hashable, Sendable, CustomStringConvertible {
        @usableFromInline let slot: Int
        @usableFromInline let generation: UInt32

        @inlinable public var description: String { "interest \(slot).\(generation)" }

        @inlinable
        init(slot: Int, generation: UInt32) {
            self.slot = slot
            self.generation = generation
        }
    }

    /// Identifies one attempt of one load: the driver passes it back when the
    /// attempt ends. Every start of a load, retries included, has a new `LoadID`.
    public struct LoadID: Hashable, Sendable, CustomStringConvertible {
        /// The attempt's number, unique within the scheduler (for drivers and tests).
        @usableFromInline package let serial: UInt64
        @usableFromInline let slot: Int

        @inlinable public var description: String { "load #\(serial)" }

        @inlinable
        init(serial: UInt64, slot: Int) {
            self.serial = serial
            self.slot = slot
        }
    }

    /// Identifies a group of interests (one prefetcher).
    public struct GroupID: Hashable, Sendable {
        @usableFromInline let index: Int
        @usableFromInline let generation: UInt32

        @inlinable
        init(index: Int, generation: UInt32) {
            self.index = index
            self.generation = generation
        }

        /// The group of interests registered without a prefetcher: admits
        /// everything, never paused, each interest keeps its own priority.
        public static var `default`: GroupID { GroupID(index: 0, generation: 0) }
    }

    /// What the driver must do.
    public enum Action {
        /// Start loading `key`; report the outcome with `loadDidSucceed` or `loadDidFail`.
        case start(LoadID, Key, FetchPriority)
        /// Stop the running load: nobody wants it any more. The driver still
        /// reports its end (it is then discarded), which frees its slot.
        case cancel(LoadID, Key)
        /// The priority of a running load changed (a driver may pass it on to
        /// the network layer; nothing else depends on it).
        case reprioritize(LoadID, Key, FetchPriority)
    }

    /// What happens after a failed attempt.
    public enum FailureDisposition {
        /// The failure is final: hand it to these payloads. Nothing is cached.
        case deliver([Payload])
        /// Try again: call `retryTimerFired` after this delay on the driver's clock.
        case retry(after: Duration)
        /// The load had been cancelled; its outcome concerns nobody.
        case discarded
    }

    // MARK: Storage

    @usableFromInline
    enum LoadState {
        case idle
        case pending(ticket: UInt64, FetchPriority)
        case running(serial: UInt64, FetchPriority)
        case backingOff(serial: UInt64)
    }

    @usableFromInline
    struct LoadRecord {
        @usableFromInline var key: Key
        @usableFromInline var state: LoadState = .idle
        @usableFromInline var head = -1
        @usableFromInline var tail = -1
        @usableFromInline var interestCount = 0
        @usableFromInline var admittedCount = 0
        @usableFromInline var active = PriorityCounts()
        @usableFromInline var failures = 0

        @inlinable
        init(key: Key) { self.key = key }
    }

    @usableFromInline
    struct InterestRecord {
        @usableFromInline var generation: UInt32 = 0
        @usableFromInline var isLive = false
        @usableFromInline var load = -1
        @usableFromInline var group = 0
        @usableFromInline var priority: FetchPriority = .normal
        @usableFromInline var isAdmitted = false
        @usableFromInline var hasPayload = false
        @usableFromInline var loadPrevious = -1
        @usableFromInline var loadNext = -1
        @usableFromInline var groupPrevious = -1
        @usableFromInline var groupNext = -1

        @inlinable
        init() {}
    }

    @usableFromInline
    struct GroupRecord {
        @usableFromInline var generation: UInt32 = 0
        @usableFromInline var isLive = false
        @usableFromInline var isPaused = false
        @usableFromInline var priority: FetchPriority = .low
        @usableFromInline var admissionLimit = Int.max
        @usableFromInline var admittedCount = 0
        @usableFromInline var admitted = ListEnds()
        @usableFromInline var waiting = ListEnds()

        @inlinable
        init() {}
    }

    @usableFromInline
    struct ListEnds {
        @usableFromInline var head = -1
        @usableFromInline var tail = -1

        @inlinable
        init() {}
    }

    @usableFromInline
    struct QueueEntry {
        @usableFromInline var slot: Int
        @usableFromInline var ticket: UInt64

        @inlinable
        init(slot: Int, ticket: UInt64) {
            self.slot = slot
            self.ticket = ticket
        }
    }

    @usableFromInline var loadSlots: [Key: Int] = [:]
    @usableFromInline var loads: [LoadRecord?] = []
    @usableFromInline var freeLoads: [Int] = []
    /// Kept apart from `interests` so that an interest record is plain data:
    /// walking and updating records never touches the generic payload.
    @usableFromInline var interests: [InterestRecord] = []
    @usableFromInline var payloads: [Payload?] = []
    @usableFromInline var freeInterests: [Int] = []
    @usableFromInline var groups: [GroupRecord] = []
    @usableFromInline var freeGroups: [Int] = []
    /// One FIFO per priority. Entries are removed lazily: an entry is live only
    /// while its load is still pending with the same ticket.
    @usableFromInline var buckets: [Deque<QueueEntry>] = Array(repeating: [], count: FetchPriority.allCases.count)
    @usableFromInline var staleEntries: [Int] = Array(repeating: 0, count: FetchPriority.allCases.count)
    @usableFromInline var nextTicket: UInt64 = 0
    @usableFromInline var nextSerial: UInt64 = 0
    /// Serials of running loads that were cancelled but have not ended yet.
    @usableFromInline var zombies: Set<UInt64> = []
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
    @usableFromInline var _pendingCount = 0
    @usableFromInline var _backingOffCount = 0
    @usableFromInline var _statistics = FetchStatistics()

    /// Loads running now, cancelled ones that have not ended included.
    @inlinable public var runningCount: Int { _runningCount }
    /// Loads waiting for a free slot.
    @inlinable public var pendingCount: Int { _pendingCount }
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
    }

    // MARK: Queries

    /// True when no load is pending, running or backing off.
    ///
    /// Interests waiting in a paused group do not count: nothing will happen
    /// to them until the group resumes.
    /// - Complexity: O(1)
    @inlinable public var isIdle: Bool { _runningCount == 0 && _pendingCount == 0 && _backingOffCount == 0 }

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

    /// The priority of interest `id`, or `nil` once it has ended.
    /// - Complexity: O(1)
    @inlinable
    public func priority(of id: InterestID) -> FetchPriority? {
        isLive(id) ? interests[id.slot].priority : nil
    }

    /// Where the load of `key` stands.
    public enum Phase: Hashable, Sendable {
        case none
        case idle
        case pending(FetchPriority)
        case running(FetchPriority)
        case backingOff
    }

    /// Where the load of `key` stands.
    /// - Complexity: O(1)
    @inlinable
    public func phase(of key: Key) -> Phase {
        guard let slot = loadSlots[key] else { return .none }
        switch loads[slot]!.state {
        case .idle: return .idle
        case .pending(_, let priority): return .pending(priority)
        case .running(_, let priority): return .running(priority)
        case .backingOff: return .backingOff
        }
    }

    /// Takes the next action the driver must perform, if any.
    /// - Complexity: O(1)
    @inlinable
    public mutating func nextAction() -> Action? {
        actions.popFirst()
    }

    // MARK: Interests

    /// Registers an interest in `key`, starting or joining its load.
    ///
    /// - Parameters:
    ///   - key: what to load.
    ///   - priority: the interest's priority; ignored for groups, whose
    ///     interests all take the group's priority.
    ///   - group: the prefetcher the interest belongs to.
    ///   - payload: what the driver gets back when the interest ends.
    /// - Returns: an identifier to withdraw or reprioritise the interest.
    /// - Complexity: O(1) amortized.
    @discardableResult
    @inlinable
    public mutating func addInterest(
        in key: Key,
        priority: FetchPriority = .normal,
        group: GroupID = .default,
        payload: Payload?
    ) -> InterestID {
        precondition(isLive(group), "addInterest: \(group) was removed")
        let loadSlot = slotForLoad(of: key)
        let interestSlot = allocateInterest()
        let groupPriority = group.index == 0 ? priority : groups[group.index].priority
        interests[interestSlot].load = loadSlot
        interests[interestSlot].group = group.index
        interests[interestSlot].priority = groupPriority
        interests[interestSlot].hasPayload = payload != nil
        payloads[interestSlot] = payload
        appendToLoadList(interestSlot, load: loadSlot)

        if group.index == 0 {
            admit(interestSlot)
        } else {
            appendToGroupList(interestSlot, admitted: false)
            admitWaiting(inGroup: group.index)
        }
        reconcile(loadSlot)
        settle()
        return InterestID(slot: interestSlot, generation: interests[interestSlot].generation)
    }

    /// Withdraws one interest. Its load is cancelled if it was the last one
    /// admitted; a load cancelled before it starts never starts.
    ///
    /// - Returns: the interest's payload, for the driver to resolve (an
    ///   awaiting caller gets a `CancellationError`), or `nil` when the interest
    ///   had no payload or had already ended.
    /// - Complexity: O(1) amortized.
    @discardableResult
    @inlinable
    public mutating func withdraw(_ id: InterestID) -> Payload? {
        guard isLive(id) else { return nil }
        let loadSlot = interests[id.slot].load
        let group = interests[id.slot].group
        let payload = detach(id.slot)
        reconcile(loadSlot)
        if group != 0 { touchedGroups.append(group) }
        settle()
        return payload
    }

    /// Withdraws every interest in `key` of the default group that has no
    /// payload (plain prefetches), leaving display requests and prefetchers'
    /// interests alone.
    ///
    /// - Returns: the number of interests withdrawn.
    /// - Complexity: O(interests in `key`).
    @discardableResult
    @inlinable
    public mutating func withdrawPrefetchInterests(in key: Key) -> Int {
        guard let loadSlot = loadSlots[key] else { return 0 }
        var withdrawn = 0
        var cursor = loads[loadSlot]!.head
        while cursor != -1 {
            let next = interests[cursor].loadNext
            if interests[cursor].group == 0, !interests[cursor].hasPayload {
                _ = detach(cursor)
                withdrawn += 1
            }
            cursor = next
        }
        if withdrawn > 0 {
            reconcile(loadSlot)
            settle()
        }
        return withdrawn
    }

    /// Changes the priority of an interest of the default group; its load
    /// moves if its highest priority changes.
    /// - Complexity: O(1) amortized.
    @inlinable
    public mutating func setPriority(_ priority: FetchPriority, of id: InterestID) {
        guard isLive(id) else { return }
        precondition(interests[id.slot].group == 0, "setPriority(_:of:): a group's interests take the group's priority")
        let old = interests[id.slot].priority
        guard old != priority else { return }
        let loadSlot = interests[id.slot].load
        interests[id.slot].priority = priority
        if interests[id.slot].isAdmitted {
            loads[loadSlot]!.active[old] -= 1
            loads[loadSlot]!.active[priority] += 1
        }
        reconcile(loadSlot)
        settle()
    }

    /// Withdraws every interest in every key (a driver shutting down).
    ///
    /// - Returns: the payloads of the withdrawn interests.
    /// - Complexity: O(keys + interests).
    @inlinable
    public mutating func withdrawAllInterests() -> [Payload] {
        var payloads: [Payload] = []
        for slot in loads.indices where loads[slot] != nil {
            var cursor = loads[slot]!.head
            while cursor != -1 {
                let next = interests[cursor].loadNext
                if let payload = detach(cursor) { payloads.append(payload) }
                cursor = next
            }
            reconcile(slot)
        }
        settle()
        return payloads
    }

    // MARK: Groups

    /// Creates a group of interests (one prefetcher).
    ///
    /// - Parameters:
    ///   - priority: the priority of every interest in the group.
    ///   - admissionLimit: the most interests of the group admitted at once.
    /// - Complexity: O(1) amortized.
    @inlinable
    public mutating func makeGroup(priority: FetchPriority = .low, admissionLimit: Int = .max) -> GroupID {
        precondition(admissionLimit >= 1, "admissionLimit must be at least 1, got \(admissionLimit)")
        let index: Int
        if let reused = freeGroups.popLast() {
            index = reused
        } else {
            index = groups.count
            groups.append(GroupRecord())
        }
        groups[index].isLive = true
        groups[index].isPaused = false
        groups[index].priority = priority
        groups[index].admissionLimit = admissionLimit
        groups[index].admittedCount = 0
        groups[index].admitted = ListEnds()
        groups[index].waiting = ListEnds()
        return GroupID(index: index, generation: groups[index].generation)
    }

    /// Whether `group` still exists.
    @inlinable
    public func isLive(_ group: GroupID) -> Bool {
        group.index < groups.count && groups[group.index].isLive && groups[group.index].generation == group.generation
    }

    /// Withdraws every interest of `group` and forgets the group.
    ///
    /// - Returns: the payloads of the withdrawn interests.
    /// - Complexity: O(interests in the group).
    @discardableResult
    @inlinable
    public mutating func removeGroup(_ group: GroupID) -> [Payload] {
        precondition(group.index != 0, "the default group cannot be removed")
        guard isLive(group) else { return [] }
        let payloads = withdrawAll(inGroup: group)
        groups[group.index].isLive = false
        groups[group.index].generation &+= 1
        freeGroups.append(group.index)
        return payloads
    }

    /// Withdraws every interest of `group`, which stays usable.
    ///
    /// - Returns: the payloads of the withdrawn interests.
    /// - Complexity: O(interests in the group).
    @discardableResult
    @inlinable
    public mutating func withdrawAll(inGroup group: GroupID) -> [Payload] {
        precondition(isLive(group), "withdrawAll(inGroup:): \(group) was removed")
        precondition(group.index != 0, "withdrawAll(inGroup:) takes a prefetcher's group")
        var payloads: [Payload] = []
        for list in [groups[group.index].waiting, groups[group.index].admitted] {
            var cursor = list.head
            while cursor != -1 {
                let next = interests[cursor].groupNext
                let loadSlot = interests[cursor].load
                if let payload = detach(cursor) { payloads.append(payload) }
                reconcile(loadSlot)
                cursor = next
            }
        }
        settle()
        return payloads
    }

    /// Pauses or resumes a group. While paused, its loads that have not
    /// started wait (unless another interest wants them), running ones finish,
    /// and no more of its interests are admitted.
    /// - Complexity: O(admitted interests in the group).
    @inlinable
    public mutating func setPaused(_ isPaused: Bool, group: GroupID) {
        precondition(isLive(group), "setPaused(_:group:): \(group) was removed")
        precondition(group.index != 0, "the default group cannot be paused")
        guard groups[group.index].isPaused != isPaused else { return }
        groups[group.index].isPaused = isPaused
        var cursor = groups[group.index].admitted.head
        while cursor != -1 {
            let loadSlot = interests[cursor].load
            loads[loadSlot]!.active[interests[cursor].priority] += isPaused ? -1 : 1
            reconcile(loadSlot)
            cursor = interests[cursor].groupNext
        }
        admitWaiting(inGroup: group.index)
        settle()
    }

    /// The priority of every interest of `group`.
    @inlinable
    public func priority(of group: GroupID) -> FetchPriority {
        groups[group.index].priority
    }

    /// Whether `group` is paused.
    @inlinable
    public func isPaused(_ group: GroupID) -> Bool {
        groups[group.index].isPaused
    }

    /// Changes the priority of every interest of `group`, queued work included.
    /// - Complexity: O(interests in the group).
    @inlinable
    public mutating func setPriority(_ priority: FetchPriority, group: GroupID) {
        precondition(isLive(group), "setPriority(_:group:): \(group) was removed")
        precondition(group.index != 0, "the default group has no priority of its own")
        guard groups[group.index].priority != priority else { return }
        groups[group.index].priority = priority
        let isPaused = groups[group.index].isPaused
        for list in [groups[group.index].admitted, groups[group.index].waiting] {
            var cursor = list.head
            while cursor != -1 {
                let old = interests[cursor].priority
                interests[cursor].priority = priority
                if interests[cursor].isAdmitted && !isPaused {
                    let loadSlot = interests[cursor].load
                    loads[loadSlot]!.active[old] -= 1
                    loads[loadSlot]!.active[priority] += 1
                    reconcile(loadSlot)
                }
                cursor = interests[cursor].groupNext
            }
        }
        settle()
    }

    /// Changes how many interests of `group` are admitted at once.
    /// - Complexity: O(newly admitted interests).
    @inlinable
    public mutating func setAdmissionLimit(_ limit: Int, group: GroupID) {
        precondition(isLive(group), "setAdmissionLimit(_:group:): \(group) was removed")
        precondition(limit >= 1, "admissionLimit must be at least 1, got \(limit)")
        groups[group.index].admissionLimit = limit
        admitWaiting(inGroup: group.index)
        settle()
    }

    // MARK: Load outcomes

    /// The load succeeded.
    ///
    /// - Returns: the payloads of every interest in the key (all of them are
    ///   satisfied, waiting ones included), or `nil` when the load had been
    ///   cancelled and its value concerns nobody.
    /// - Complexity: O(interests in the key).
    @inlinable
    public mutating func loadDidSucceed(_ id: LoadID) -> [Payload]? {
        if endZombie(id) { return nil }
        let slot = runningSlot(id, "loadDidSucceed")
        _runningCount -= 1
        _statistics.loadsCompleted += 1
        let payloads = detachAll(slot)
        settle()
        return payloads
    }

    /// The load failed.
    ///
    /// - Parameters:
    ///   - id: the load that failed.
    ///   - isTransient: whether trying again may help (the driver decides).
    /// - Complexity: O(interests in the key).
    @inlinable
    public mutating func loadDidFail(_ id: LoadID, isTransient: Bool) -> FailureDisposition {
        if endZombie(id) { return .discarded }
        let slot = runningSlot(id, "loadDidFail")
        _runningCount -= 1
        loads[slot]!.failures += 1
        if isTransient, let delay = retryPolicy.delay(afterFailures: loads[slot]!.failures) {
            loads[slot]!.state = .backingOff(serial: id.serial)
            _backingOffCount += 1
            _statistics.retriesScheduled += 1
            settle()
            return .retry(after: delay)
        }
        _statistics.loadsFailed += 1
        let payloads = detachAll(slot)
        settle()
        return .deliver(payloads)
    }

    /// The delay before a retry has passed. A timer for a load that was
    /// cancelled meanwhile is ignored.
    /// - Complexity: O(1) amortized.
    @inlinable
    public mutating func retryTimerFired(_ id: LoadID) {
        guard id.slot < loads.count, let record = loads[id.slot],
            case .backingOff(let serial) = record.state, serial == id.serial
        else { return }
        _backingOffCount -= 1
        loads[id.slot]!.state = .idle
        if let priority = record.active.highest {
            enqueue(id.slot, priority: priority, atFront: true)
        }
        settle()
    }

    // MARK: Invariants

    /// Verifies every invariant of the scheduler by brute force, stopping the
    /// program with a description of the first one broken.
    ///
    /// For tests: it walks every load, interest, group and queue entry.
    /// - Complexity: O(keys + interests + queued entries).
    @inlinable
    package func checkInvariants() {
        var pending = 0
        var running = 0
        var backingOff = 0
        var liveInterests = 0
        for (slot, record) in loads.enumerated() {
            guard let record else { continue }
            precondition(loadSlots[record.key] == slot, "load slot \(slot) is not indexed by its key")
            var count = 0
            var admitted = 0
            var active = PriorityCounts()
            var previous = -1
            var cursor = record.head
            while cursor != -1 {
                let interest = interests[cursor]
                precondition(interest.isLive, "a dead interest is in load \(slot)'s list")
                precondition(interest.load == slot, "interest \(cursor) is listed under the wrong load")
                precondition(interest.loadPrevious == previous, "load \(slot)'s list is broken at \(cursor)")
                count += 1
                if interest.isAdmitted {
                    admitted += 1
                    if !groups[interest.group].isPaused { active[interest.priority] += 1 }
                }
                previous = cursor
                cursor = interest.loadNext
            }
            precondition(record.tail == previous, "load \(slot)'s tail is wrong")
            precondition(count == record.interestCount, "load \(slot) counts \(record.interestCount), has \(count)")
            precondition(admitted == record.admittedCount, "load \(slot)'s admitted count is wrong")
            precondition(active == record.active, "load \(slot)'s priority counts are wrong")
            switch record.state {
            case .idle:
                precondition(active.highest == nil, "load \(slot) is wanted but not queued")
                precondition(count > 0, "load \(slot) is idle with no interest and was not freed")
            case .pending(_, let priority):
                pending += 1
                precondition(active.highest == priority, "load \(slot) is queued at the wrong priority")
            case .running:
                running += 1
                precondition(admitted > 0, "load \(slot) runs for nobody")
            case .backingOff:
                backingOff += 1
                precondition(admitted > 0, "load \(slot) backs off for nobody")
            }
        }
        precondition(loadSlots.count == loads.count(where: { $0 != nil }), "the key index and the loads disagree")
        for interest in interests where interest.isLive {
            liveInterests += 1
            precondition(loads[interest.load] != nil, "a live interest points at a freed load")
        }
        precondition(liveInterests + freeInterests.count == interests.count, "interest slots leaked")
        for (index, group) in groups.enumerated() where index != 0 && group.isLive {
            var admitted = 0
            for (list, isAdmitted) in [(group.admitted, true), (group.waiting, false)] {
                var cursor = list.head
                var previous = -1
                while cursor != -1 {
                    precondition(
                        interests[cursor].isLive && interests[cursor].group == index, "group \(index)'s list is broken")
                    precondition(interests[cursor].isAdmitted == isAdmitted, "interest \(cursor) is in the wrong list")
                    precondition(interests[cursor].groupPrevious == previous, "group \(index)'s links are broken")
                    if isAdmitted { admitted += 1 }
                    previous = cursor
                    cursor = interests[cursor].groupNext
                }
                precondition(list.tail == previous, "group \(index)'s tail is wrong")
            }
            precondition(admitted == group.admittedCount, "group \(index)'s admitted count is wrong")
            precondition(
                group.isPaused || admitted >= group.admissionLimit || group.waiting.head == -1,
                "group \(index) leaves interests waiting below its limit")
        }
        precondition(pending == _pendingCount, "pendingCount is \(_pendingCount), counted \(pending)")
        precondition(
            running + zombies.count == _runningCount,
            "runningCount is \(_runningCount), counted \(running)+\(zombies.count)")
        precondition(backingOff == _backingOffCount, "backingOffCount is wrong")
        var live = 0
        for (bucket, entries) in buckets.enumerated() {
            let liveHere = entries.count(where: isLiveEntry)
            live += liveHere
            precondition(entries.count - liveHere == staleEntries[bucket], "bucket \(bucket)'s stale count is wrong")
        }
        precondition(live == _pendingCount, "the queues hold \(live) live entries for \(_pendingCount) pending loads")
    }

    // MARK: Internals

    @inlinable
    mutating func slotForLoad(of key: Key) -> Int {
        if let slot = loadSlots[key] { return slot }
        let slot: Int
        if let reused = freeLoads.popLast() {
            slot = reused
            loads[slot] = LoadRecord(key: key)
        } else {
            slot = loads.count
            loads.append(LoadRecord(key: key))
        }
        loadSlots[key] = slot
        return slot
    }

    @inlinable
    mutating func freeLoadIfUnused(_ slot: Int) {
        guard let record = loads[slot], record.interestCount == 0, case .idle = record.state else { return }
        loadSlots[record.key] = nil
        loads[slot] = nil
        freeLoads.append(slot)
    }

    @inlinable
    mutating func allocateInterest() -> Int {
        let slot: Int
        if let reused = freeInterests.popLast() {
            slot = reused
        } else {
            slot = interests.count
            interests.append(InterestRecord())
            payloads.append(nil)
        }
        interests[slot].isLive = true
        interests[slot].isAdmitted = false
        return slot
    }

    @inlinable
    mutating func appendToLoadList(_ interest: Int, load: Int) {
        let tail = loads[load]!.tail
        interests[interest].loadPrevious = tail
        interests[interest].loadNext = -1
        if tail == -1 { loads[load]!.head = interest } else { interests[tail].loadNext = interest }
        loads[load]!.tail = interest
        loads[load]!.interestCount += 1
    }

    @inlinable
    mutating func removeFromLoadList(_ interest: Int) {
        let load = interests[interest].load
        let previous = interests[interest].loadPrevious
        let next = interests[interest].loadNext
        if previous == -1 { loads[load]!.head = next } else { interests[previous].loadNext = next }
        if next == -1 { loads[load]!.tail = previous } else { interests[next].loadPrevious = previous }
        loads[load]!.interestCount -= 1
    }

    @inlinable
    mutating func appendToGroupList(_ interest: Int, admitted: Bool) {
        let group = interests[interest].group
        var ends = admitted ? groups[group].admitted : groups[group].waiting
        interests[interest].groupPrevious = ends.tail
        interests[interest].groupNext = -1
        if ends.tail == -1 { ends.head = interest } else { interests[ends.tail].groupNext = interest }
        ends.tail = interest
        if admitted { groups[group].admitted = ends } else { groups[group].waiting = ends }
    }

    @inlinable
    mutating func removeFromGroupList(_ interest: Int) {
        let group = interests[interest].group
        let admitted = interests[interest].isAdmitted
        var ends = admitted ? groups[group].admitted : groups[group].waiting
        let previous = interests[interest].groupPrevious
        let next = interests[interest].groupNext
        if previous == -1 { ends.head = next } else { interests[previous].groupNext = next }
        if next == -1 { ends.tail = previous } else { interests[next].groupPrevious = previous }
        if admitted { groups[group].admitted = ends } else { groups[group].waiting = ends }
    }

    /// Counts the interest toward its load (and its group's limit).
    @inlinable
    mutating func admit(_ interest: Int) {
        let load = interests[interest].load
        let group = interests[interest].group
        if group != 0 {
            removeFromGroupList(interest)
            interests[interest].isAdmitted = true
            appendToGroupList(interest, admitted: true)
            groups[group].admittedCount += 1
        } else {
            interests[interest].isAdmitted = true
        }
        loads[load]!.admittedCount += 1
        if !groups[group].isPaused {
            loads[load]!.active[interests[interest].priority] += 1
        }
    }

    /// Admits the group's waiting interests, FIFO, up to its limit.
    @inlinable
    mutating func admitWaiting(inGroup group: Int) {
        while !groups[group].isPaused, groups[group].admittedCount < groups[group].admissionLimit {
            let interest = groups[group].waiting.head
            guard interest != -1 else { return }
            admit(interest)
            reconcile(interests[interest].load)
        }
    }

    /// Removes an interest from every list and frees it; the caller reconciles its load.
    @inlinable
    mutating func detach(_ interest: Int) -> Payload? {
        let load = interests[interest].load
        let group = interests[interest].group
        removeFromLoadList(interest)
        if group != 0 { removeFromGroupList(interest) }
        if interests[interest].isAdmitted {
            loads[load]!.admittedCount -= 1
            if !groups[group].isPaused { loads[load]!.active[interests[interest].priority] -= 1 }
            if group != 0 {
                groups[group].admittedCount -= 1
                touchedGroups.append(group)
            }
        }
        var payload: Payload?
        if interests[interest].hasPayload {
            payload = payloads[interest].take()
            interests[interest].hasPayload = false
        }
        interests[interest].isLive = false
        interests[interest].isAdmitted = false
        interests[interest].generation &+= 1
        freeInterests.append(interest)
        return payload
    }

    /// Ends every interest of a load that finished, and frees the load.
    @inlinable
    mutating func detachAll(_ slot: Int) -> [Payload] {
        var payloads: [Payload] = []
        payloads.reserveCapacity(loads[slot]!.interestCount)
        var cursor = loads[slot]!.head
        while cursor != -1 {
            let next = interests[cursor].loadNext
            if let payload = detach(cursor) { payloads.append(payload) }
            cursor = next
        }
        loads[slot]!.state = .idle
        freeLoadIfUnused(slot)
        return payloads
    }

    /// Lets groups whose admitted interests ended admit their next ones, then
    /// starts what the concurrency limit allows. Every public event ends here.
    @inlinable
    mutating func settle() {
        while let group = touchedGroups.popLast() {
            if groups[group].isLive { admitWaiting(inGroup: group) }
        }
        startLoads()
    }

    /// Brings a load's state in line with its interests.
    @inlinable
    mutating func reconcile(_ slot: Int) {
        guard let record = loads[slot] else { return }
        switch record.state {
        case .idle:
            if let priority = record.active.highest {
                enqueue(slot, priority: priority, atFront: false)
            } else {
                freeLoadIfUnused(slot)
            }
        case .pending(_, let current):
            let wanted = record.active.highest
            guard wanted != current else { return }
            // Leave the queue first, so that a compaction triggered by the
            // removal already sees this entry as stale.
            loads[slot]!.state = .idle
            _pendingCount -= 1
            removeFromQueue(current)
            if let wanted {
                enqueue(slot, priority: wanted, atFront: wanted < current)
            } else {
                freeLoadIfUnused(slot)
            }
        case .running(let serial, let current):
            if record.admittedCount == 0 {
                actions.append(.cancel(LoadID(serial: serial, slot: slot), record.key))
                zombies.insert(serial)
                _statistics.loadsCancelled += 1
                // The retry budget is per load: a later load of the key starts afresh.
                loads[slot]!.failures = 0
                loads[slot]!.state = .idle
                freeLoadIfUnused(slot)
            } else if let priority = record.active.highest, priority != current {
                loads[slot]!.state = .running(serial: serial, priority)
                actions.append(.reprioritize(LoadID(serial: serial, slot: slot), record.key, priority))
            }
        case .backingOff:
            if record.admittedCount == 0 {
                _backingOffCount -= 1
                _statistics.loadsCancelled += 1
                loads[slot]!.failures = 0
                loads[slot]!.state = .idle
                freeLoadIfUnused(slot)
            }
        }
    }

    @inlinable
    mutating func enqueue(_ slot: Int, priority: FetchPriority, atFront: Bool) {
        let ticket = nextTicket
        nextTicket &+= 1
        loads[slot]!.state = .pending(ticket: ticket, priority)
        _pendingCount += 1
        let entry = QueueEntry(slot: slot, ticket: ticket)
        if atFront {
            buckets[priority.rawValue].prepend(entry)
        } else {
            buckets[priority.rawValue].append(entry)
        }
    }

    /// Accounts for an entry that is now stale; compacts the bucket when stale
    /// entries outnumber live ones, which keeps removal amortized O(1) and
    /// memory proportional to the pending loads.
    @inlinable
    mutating func removeFromQueue(_ priority: FetchPriority) {
        let bucket = priority.rawValue
        staleEntries[bucket] += 1
        let stale = staleEntries[bucket]
        if stale > 32, stale * 2 > buckets[bucket].count {
            let entries = buckets[bucket]
            buckets[bucket].removeAll(keepingCapacity: true)
            for entry in entries where isLiveEntry(entry) {
                buckets[bucket].append(entry)
            }
            staleEntries[bucket] = 0
        }
    }

    @inlinable
    func isLiveEntry(_ entry: QueueEntry) -> Bool {
        guard let record = loads[entry.slot], case .pending(let ticket, _) = record.state else { return false }
        return ticket == entry.ticket
    }

    @inlinable
    mutating func startLoads() {
        guard _pendingCount > 0 else { return }
        var bucket = FetchPriority.allCases.count - 1
        while _runningCount < maxConcurrentLoads, _pendingCount > 0, bucket >= 0 {
            guard let entry = buckets[bucket].popFirst() else {
                bucket -= 1
                continue
            }
            guard isLiveEntry(entry) else {
                staleEntries[bucket] -= 1
                continue
            }
            let record = loads[entry.slot]!
            guard case .pending(_, let priority) = record.state else { preconditionFailure("unreachable") }
            let serial = nextSerial
            nextSerial &+= 1
            loads[entry.slot]!.state = .running(serial: serial, priority)
            _pendingCount -= 1
            _runningCount += 1
            _statistics.loadsStarted += 1
            actions.append(.start(LoadID(serial: serial, slot: entry.slot), record.key, priority))
        }
    }

    @inlinable
    mutating func endZombie(_ id: LoadID) -> Bool {
        guard zombies.remove(id.serial) != nil else { return false }
        _runningCount -= 1
        settle()
        return true
    }

    @inlinable
    func runningSlot(_ id: LoadID, _ event: StaticString) -> Int {
        guard id.slot < loads.count, let record = loads[id.slot],
            case .running(let serial, _) = record.state, serial == id.serial
        else {
            preconditionFailure("\(event): \(id) is not running (reported twice, or never started)")
        }
        return id.slot
    }
}

extension FetchScheduler.Action: Sendable where Key: Sendable {}
extension FetchScheduler.Action: Equatable where Key: Equatable {}
extension FetchScheduler: Sendable where Key: Sendable, Payload: Sendable {}
extension FetchScheduler.LoadRecord: Sendable where Key: Sendable {}
extension FetchScheduler.InterestRecord: Sendable where Payload: Sendable {}
extension FetchScheduler.LoadState: Sendable {}
extension FetchScheduler.GroupRecord: Sendable {}
extension FetchScheduler.QueueEntry: Sendable {}
extension FetchScheduler.ListEnds: Sendable {}
