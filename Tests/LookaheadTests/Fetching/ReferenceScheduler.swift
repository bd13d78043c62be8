import Lookahead

/// An obviously correct model of ``FetchScheduler`` for `FetchSchedulerModelTests`,
/// written from the rules in its documentation rather than from its code.
///
/// Everything is an array scanned linearly: the interests in the order they
/// were registered, the groups, one record per key. There are no queues: a
/// pending load carries an order stamp, taken from a counter that grows when
/// the load joins the back of its priority and from one that shrinks when it
/// joins the front, and the next load to start is the pending one with the
/// highest priority and, within it, the earliest deadline (the earliest among
/// its active interests; loads without one come after those with one), then
/// the smallest stamp. A load whose deadline changes keeps its stamp, unless
/// it loses its deadline: then it joins the back of the loads without one.
///
/// Where the documentation leaves an order open (which of several loads is
/// reconciled first, which group admits first), the model does what the
/// implementation does, and says so at that spot: those orders decide the
/// order of the actions and of the pending loads, which the test compares
/// exactly.
///
/// Hedges follow the documented rules: a running load that has not had one
/// may ask for a second attempt, which waits like a pending load of its
/// priority without a deadline, stamped at the back, and starts as one; the
/// first attempt ending drops it; the first attempt to succeed delivers and
/// the other becomes a zombie; an attempt that fails while the other runs is
/// discarded; a hedged load nobody wants leaves two zombies.
///
/// Keys, payloads, interests and groups are plain `Int`s; loads are named by
/// the serial of their `LoadID`, which is public and counts starts.
struct ReferenceScheduler {
    /// What the scheduler asks its driver to do, with loads named by serial.
    enum Action: Hashable, CustomStringConvertible {
        case start(serial: UInt64, key: Int, priority: FetchPriority)
        case cancel(serial: UInt64, key: Int)
        case reprioritize(serial: UInt64, key: Int, priority: FetchPriority)

        var description: String {
            switch self {
            case .start(let serial, let key, let priority): "start(#\(serial), key \(key), \(priority))"
            case .cancel(let serial, let key): "cancel(#\(serial), key \(key))"
            case .reprioritize(let serial, let key, let priority): "reprioritize(#\(serial), key \(key), \(priority))"
            }
        }
    }

    /// ``FetchScheduler/FailureDisposition`` with payloads that compare.
    enum Disposition: Equatable, CustomStringConvertible {
        case deliver([Int])
        case retry(after: Duration)
        case discarded

        var description: String {
            switch self {
            case .deliver(let payloads): "deliver(\(payloads))"
            case .retry(let delay): "retry(after: \(delay))"
            case .discarded: "discarded"
            }
        }
    }

    typealias Phase = FetchScheduler<Int, Int>.Phase

    struct Interest {
        let id: Int
        let key: Int
        /// `0` is the default group.
        let group: Int
        var priority: FetchPriority
        let payload: Int?
        var deadline: Duration?
        /// Whether the interest is its group's entry for its key (`addKey`).
        var isKeyed = false
        var isAdmitted = false
        /// When the interest was admitted: a group's admitted interests are
        /// visited in this order.
        var admissionStamp = 0
        /// Whether the interest's group is paused, as far as this interest is
        /// concerned. `setPaused` flips it one interest at a time and
        /// reconciles that interest's load in between, as the implementation
        /// does, so the loads a pause touches change in the same order.
        var isHeldByPause = false

        var isActive: Bool { isAdmitted && !isHeldByPause }
    }

    struct Group {
        let id: Int
        var isPaused = false
        var priority: FetchPriority
        var admissionLimit: Int
        var completedCount = 0
        var failedCount = 0
    }

    enum LoadState: Equatable {
        case idle
        /// Ordered by this deadline, the one it had when last placed.
        case pending(FetchPriority, stamp: Int, deadline: Duration?)
        case running(serial: UInt64, FetchPriority)
        /// Its hedge waits, ordered as a pending load of this stamp and
        /// deadline (the load's earliest, as of when it was last placed).
        case hedgeQueued(serial: UInt64, FetchPriority, stamp: Int, deadline: Duration?)
        case hedged(serial: UInt64, hedge: UInt64, FetchPriority)
        case backingOff(serial: UInt64)

        /// The priority it runs at, one attempt or two.
        var runningPriority: FetchPriority? {
            switch self {
            case .running(_, let priority), .hedged(_, _, let priority), .hedgeQueued(_, let priority, _, _): priority
            default: nil
            }
        }
    }

    /// The record of a key. It exists while the key has an interest or a load
    /// (pending, running and not cancelled, backing off). The failure count is
    /// per load: it starts again at zero when a running or backing-off load
    /// is dropped because nobody wants it any more.
    struct Load {
        let key: Int
        var state: LoadState = .idle
        var failures = 0
        var hasHedged = false
    }

    var interests: [Interest] = []
    var groups: [Group] = []
    var loads: [Load] = []
    /// Serials of running loads that were cancelled and have not been reported.
    var zombies: [UInt64] = []
    var statistics = FetchStatistics()
    var actions: [Action] = []
    /// Groups whose admitted interests left during the current operation. They
    /// admit their waiting interests when the operation settles, the last one
    /// touched first, duplicates included: the implementation's order.
    var touchedGroups: [Int] = []
    var nextSerial: UInt64 = 0
    var nextBackStamp = 0
    var nextFrontStamp = -1
    var nextInterestID = 0
    var nextGroupID = 1
    var nextAdmissionStamp = 0

    var maxConcurrentLoads: Int {
        didSet { settle() }
    }
    var retryPolicy: RetryPolicy

    init(maxConcurrentLoads: Int, retryPolicy: RetryPolicy) {
        self.maxConcurrentLoads = maxConcurrentLoads
        self.retryPolicy = retryPolicy
    }

    // MARK: Queries

    var runningCount: Int {
        loads.reduce(zombies.count) { count, load in
            switch load.state {
            case .running, .hedgeQueued: count + 1
            case .hedged: count + 2
            default: count
            }
        }
    }
    var pendingCount: Int {
        loads.count(where: {
            switch $0.state {
            case .pending, .hedgeQueued: true
            default: false
            }
        })
    }
    var backingOffCount: Int { loads.count(where: { if case .backingOff = $0.state { true } else { false } }) }
    var isIdle: Bool { runningCount == 0 && pendingCount == 0 && backingOffCount == 0 }
    var keyCount: Int { loads.count }
    var interestTotal: Int { interests.count }

    func interestCount(in key: Int) -> Int { interests.count(where: { $0.key == key }) }

    func isLive(interest id: Int) -> Bool { interests.contains { $0.id == id } }

    func isLive(group id: Int) -> Bool { groups.contains { $0.id == id } }

    func group(_ id: Int) -> Group? { groups.first { $0.id == id } }

    func isDefaultGroupInterest(_ id: Int) -> Bool { interests.first { $0.id == id }?.group == 0 }

    func phase(of key: Int) -> Phase {
        guard let load = loads.first(where: { $0.key == key }) else { return .none }
        switch load.state {
        case .idle: return .idle
        case .pending(let priority, _, _): return .pending(priority)
        case .running(_, let priority), .hedged(_, _, let priority), .hedgeQueued(_, let priority, _, _):
            return .running(priority)
        case .backingOff: return .backingOff
        }
    }

    /// The phases of keys `0..<count`, in one pass.
    func phases(ofKeysBelow count: Int) -> [Phase] {
        var phases = [Phase](repeating: .none, count: count)
        for load in loads where load.key < count {
            phases[load.key] =
                switch load.state {
                case .idle: .idle
                case .pending(let priority, _, _): .pending(priority)
                case .running(_, let priority), .hedged(_, _, let priority), .hedgeQueued(_, let priority, _, _):
                    .running(priority)
                case .backingOff: .backingOff
                }
        }
        return phases
    }

    /// The deadlines pending loads of keys `0..<count` are ordered by, in one pass.
    func deadlines(ofKeysBelow count: Int) -> [Duration?] {
        var deadlines = [Duration?](repeating: nil, count: count)
        for load in loads where load.key < count {
            if case .pending(_, _, let deadline) = load.state { deadlines[load.key] = deadline }
        }
        return deadlines
    }

    func deadline(of id: Int) -> Duration? { interests.first { $0.id == id }?.deadline }

    func keyCount(inGroup id: Int) -> Int { interests.count { $0.group == id && $0.isKeyed } }

    /// The interest counts of keys `0..<count`, in one pass.
    func interestCounts(ofKeysBelow count: Int) -> [Int] {
        var counts = [Int](repeating: 0, count: count)
        for interest in interests where interest.key < count { counts[interest.key] += 1 }
        return counts
    }

    mutating func takeActions() -> [Action] {
        defer { actions.removeAll() }
        return actions
    }

    // MARK: Rules

    /// The retry policy's documented schedule, computed from scratch: no delay
    /// once `maxAttempts` attempts failed, else the initial delay times the
    /// multiplier once per earlier failure, capped.
    func retryDelay(afterFailures failures: Int) -> Duration? {
        guard failures < retryPolicy.maxAttempts else { return nil }
        var delay = retryPolicy.initialDelay
        for _ in 1..<failures {
            delay = min(delay * retryPolicy.multiplier, retryPolicy.maxDelay)
        }
        return min(delay, retryPolicy.maxDelay)
    }

    func runningKey(_ serial: UInt64) -> Int {
        let load = loads.first { load in
            switch load.state {
            case .running(serial, _), .hedgeQueued(serial, _, _, _): true
            case .hedged(let first, let hedge, _): first == serial || hedge == serial
            default: false
            }
        }
        guard let load else { preconditionFailure("model: #\(serial) is not running") }
        return load.key
    }

    func activePriority(of key: Int) -> FetchPriority? {
        interests.lazy.filter { $0.key == key && $0.isActive }.map(\.priority).max()
    }

    func activeDeadline(of key: Int) -> Duration? {
        interests.lazy.filter { $0.key == key && $0.isActive }.compactMap(\.deadline).min()
    }

    func admittedCount(of key: Int) -> Int {
        interests.count { $0.key == key && $0.isAdmitted }
    }

    func waitingInterests(of group: Int) -> [Int] {
        interests.filter { $0.group == group && !$0.isAdmitted }.map(\.id)
    }

    func admittedInterests(of group: Int) -> [Int] {
        interests.filter { $0.group == group && $0.isAdmitted }
            .sorted { $0.admissionStamp < $1.admissionStamp }
            .map(\.id)
    }

    mutating func backStamp() -> Int {
        defer { nextBackStamp += 1 }
        return nextBackStamp
    }

    mutating func frontStamp() -> Int {
        defer { nextFrontStamp -= 1 }
        return nextFrontStamp
    }

    mutating func admit(_ index: Int) {
        interests[index].isAdmitted = true
        interests[index].admissionStamp = nextAdmissionStamp
        nextAdmissionStamp += 1
        interests[index].isHeldByPause = false
    }

    /// A group admits its waiting interests, oldest first, while it is not
    /// paused and below its limit; each admission reconciles its load at once.
    mutating func admitWaiting(inGroup id: Int) {
        while let group = group(id), !group.isPaused,
            interests.count(where: { $0.group == id && $0.isAdmitted }) < group.admissionLimit,
            let index = interests.firstIndex(where: { $0.group == id && !$0.isAdmitted })
        {
            admit(index)
            reconcile(interests[index].key)
        }
    }

    mutating func detach(_ index: Int) -> Int? {
        let interest = interests.remove(at: index)
        if interest.isAdmitted && interest.group != 0 { touchedGroups.append(interest.group) }
        return interest.payload
    }

    /// Every interest of the key ends, waiting ones included, in the order
    /// they came; the key is forgotten.
    mutating func endAllInterests(in key: Int, succeeded: Bool) -> [Int] {
        var payloads: [Int] = []
        while let index = interests.firstIndex(where: { $0.key == key }) {
            if interests[index].isKeyed, let group = groups.firstIndex(where: { $0.id == interests[index].group }) {
                if succeeded { groups[group].completedCount += 1 } else { groups[group].failedCount += 1 }
            }
            if let payload = detach(index) { payloads.append(payload) }
        }
        loads.removeAll { $0.key == key }
        return payloads
    }

    mutating func forgetIfUnused(_ key: Int) {
        guard let position = loads.firstIndex(where: { $0.key == key }), loads[position].state == .idle,
            !interests.contains(where: { $0.key == key })
        else { return }
        loads.remove(at: position)
    }

    /// Nobody wants the running load: each attempt is cancelled and left a
    /// zombie, and a later load of the key starts afresh.
    mutating func cancelRunning(_ serials: [UInt64], of key: Int, at position: Int) {
        for serial in serials { actions.append(.cancel(serial: serial, key: key)) }
        zombies += serials
        statistics.loadsCancelled += 1
        loads[position].failures = 0
        loads[position].hasHedged = false
        loads[position].state = .idle
        forgetIfUnused(key)
    }

    /// Brings the key's load in line with its interests.
    mutating func reconcile(_ key: Int) {
        guard let position = loads.firstIndex(where: { $0.key == key }) else { return }
        let wanted = activePriority(of: key)
        let deadline = activeDeadline(of: key)
        switch loads[position].state {
        case .idle:
            if let wanted {
                loads[position].state = .pending(wanted, stamp: backStamp(), deadline: deadline)
            } else {
                forgetIfUnused(key)
            }
        case .pending(let current, let stamp, let currentDeadline):
            if let wanted {
                if wanted < current {
                    loads[position].state = .pending(wanted, stamp: frontStamp(), deadline: deadline)
                } else if wanted > current {
                    loads[position].state = .pending(wanted, stamp: backStamp(), deadline: deadline)
                } else if deadline != currentDeadline {
                    // Re-dated, it keeps its place among its peers; without a
                    // deadline any more, it joins the back of the undated.
                    let newStamp = deadline == nil ? backStamp() : stamp
                    loads[position].state = .pending(wanted, stamp: newStamp, deadline: deadline)
                }
            } else {
                loads[position].state = .idle
                forgetIfUnused(key)
            }
        case .running(let serial, let current):
            if admittedCount(of: key) == 0 {
                cancelRunning([serial], of: key, at: position)
            } else if let wanted, wanted != current {
                // With every admitted interest in a paused group there is no
                // priority to move to: the implementation keeps the old one.
                loads[position].state = .running(serial: serial, wanted)
                actions.append(.reprioritize(serial: serial, key: key, priority: wanted))
            }
        case .hedgeQueued(let serial, let current, let stamp, let currentDeadline):
            if admittedCount(of: key) == 0 {
                actions.append(.cancel(serial: serial, key: key))
                zombies.append(serial)
                statistics.loadsCancelled += 1
                loads[position].failures = 0
                loads[position].hasHedged = false
                loads[position].state = .idle
                forgetIfUnused(key)
            } else if let wanted, wanted != current {
                let stamp = wanted < current ? frontStamp() : backStamp()
                loads[position].state = .hedgeQueued(serial: serial, wanted, stamp: stamp, deadline: deadline)
                actions.append(.reprioritize(serial: serial, key: key, priority: wanted))
            } else if deadline != currentDeadline {
                // As a pending load: its stamp stays, unless it loses its deadline.
                let newStamp = deadline == nil ? backStamp() : stamp
                loads[position].state = .hedgeQueued(serial: serial, current, stamp: newStamp, deadline: deadline)
            }
        case .hedged(let serial, let hedge, let current):
            if admittedCount(of: key) == 0 {
                cancelRunning([serial, hedge], of: key, at: position)
            } else if let wanted, wanted != current {
                loads[position].state = .hedged(serial: serial, hedge: hedge, wanted)
                actions.append(.reprioritize(serial: serial, key: key, priority: wanted))
                actions.append(.reprioritize(serial: hedge, key: key, priority: wanted))
            }
        case .backingOff:
            if admittedCount(of: key) == 0 {
                statistics.loadsCancelled += 1
                loads[position].failures = 0
                loads[position].hasHedged = false
                loads[position].state = .idle
                forgetIfUnused(key)
            }
        }
    }

    /// Groups admit what they can (last touched first), then pending loads
    /// start while there is room: highest priority first, then the earliest
    /// deadline (none comes last), then the smallest stamp.
    static func startsBefore(
        _ priority: FetchPriority, _ deadline: Duration?, _ stamp: Int,
        _ otherPriority: FetchPriority, _ otherDeadline: Duration?, _ otherStamp: Int
    ) -> Bool {
        if priority != otherPriority { return priority > otherPriority }
        switch (deadline, otherDeadline) {
        case (let mine?, let other?) where mine != other: return mine < other
        case (.some, nil): return true
        case (nil, .some): return false
        default: return stamp < otherStamp
        }
    }

    mutating func settle() {
        while let group = touchedGroups.popLast() {
            if isLive(group: group) { admitWaiting(inGroup: group) }
        }
        while runningCount < maxConcurrentLoads {
            var next: (position: Int, priority: FetchPriority, deadline: Duration?, stamp: Int)?
            for (position, load) in loads.enumerated() {
                let priority: FetchPriority
                let stamp: Int
                let deadline: Duration?
                switch load.state {
                case .pending(let pendingPriority, let pendingStamp, let pendingDeadline):
                    (priority, stamp, deadline) = (pendingPriority, pendingStamp, pendingDeadline)
                case .hedgeQueued(_, let hedgePriority, let hedgeStamp, let hedgeDeadline):
                    (priority, stamp, deadline) = (hedgePriority, hedgeStamp, hedgeDeadline)
                default:
                    continue
                }
                if let best = next,
                    Self.startsBefore(best.priority, best.deadline, best.stamp, priority, deadline, stamp)
                {
                    continue
                }
                next = (position, priority, deadline, stamp)
            }
            guard let next else { return }
            let serial = nextSerial
            nextSerial += 1
            if case .hedgeQueued(let first, _, _, _) = loads[next.position].state {
                loads[next.position].state = .hedged(serial: first, hedge: serial, next.priority)
                statistics.hedgesStarted += 1
            } else {
                loads[next.position].state = .running(serial: serial, next.priority)
            }
            statistics.loadsStarted += 1
            actions.append(.start(serial: serial, key: loads[next.position].key, priority: next.priority))
        }
    }
}
