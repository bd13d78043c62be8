@testable import Lookahead

/// Plays a random driver against the real scheduler and the model at once.
///
/// The driver only does what a real one may: it reports each started load
/// exactly once (cancelled ones too), fires retry timers it was given (in any
/// order, and sometimes again once stale), and uses group and interest
/// handles it holds, some of them dead. Interests and groups are named by the
/// model's numbers in the log.
struct ModelDriver {
    typealias Scheduler = FetchScheduler<Int, Int>
    typealias Model = ReferenceScheduler

    struct InterestHandle {
        let real: Scheduler.InterestID
        let model: Int
    }

    struct GroupHandle {
        let real: Scheduler.GroupID
        let model: Int
    }

    static let keys = 12
    static let maxInterests = 70

    var random: SeededRandom
    /// Whether loads are reported five times less often than usual.
    let slowLoads: Bool
    var real: Scheduler
    var model: Model
    var interests: [InterestHandle] = []
    var groups: [GroupHandle] = []
    var removedGroups: [GroupHandle] = []
    /// Every load the scheduler started, by serial, to check the ids in later actions.
    var startedLoads: [UInt64: Scheduler.LoadID] = [:]
    /// Started and not reported yet, cancelled ones included.
    var outstandingLoads: [Scheduler.LoadID] = []
    var cancelledLoads: Set<UInt64> = []
    /// The last few loads reported, for stale calls.
    var reportedLoads: [Scheduler.LoadID] = []
    var retryTimers: [Scheduler.LoadID] = []
    var firedTimers: [Scheduler.LoadID] = []
    /// Payloads handed back so far: each one must come back once at most.
    var endedPayloads: Set<Int> = []
    var nextPayload = 0
    var log: [String] = []
    var divergence: String?
    /// The phase of every key after the previous operation.
    var phases = [Scheduler.Phase](repeating: .none, count: keys)
    /// The deadline of every key's pending load after the previous operation.
    var deadlines = [Duration?](repeating: nil, count: keys)
    /// How often the subtle cases happened.
    var coverage: [String: Int] = [
        "cancel": 0, "reprioritize": 0, "zombie reported": 0, "retry": 0, "retry started": 0,
        "stale timer": 0, "backing-off load dropped": 0, "group waiting": 0, "lowered while pending": 0,
        "re-dated while pending": 0, "undated while pending": 0, "key already in group": 0, "keyed outcome": 0,
        "hedge granted": 0, "hedge started": 0, "hedge refused": 0, "queued hedge dropped": 0, "hedge won": 0,
        "first attempt won": 0,
        "attempt failed beside its sibling": 0, "hedged load cancelled": 0,
    ]

    /// The hedging cases: a run whose loads are reported rarely keeps its
    /// slots full, so hedges are granted too rarely there to reach them all.
    static let hedgeCoverage: Set<String> = [
        "hedge started", "hedge won", "first attempt won", "attempt failed beside its sibling",
        "hedged load cancelled", "queued hedge dropped",
    ]

    init(seed: UInt64, slowLoads: Bool) {
        self.slowLoads = slowLoads
        random = SeededRandom(seed: seed)
        let maxConcurrentLoads = Int.random(in: 1...3, using: &random)
        let retryPolicy = Self.randomRetryPolicy(using: &random)
        real = Scheduler(maxConcurrentLoads: maxConcurrentLoads, retryPolicy: retryPolicy)
        model = Model(maxConcurrentLoads: maxConcurrentLoads, retryPolicy: retryPolicy)
        log.append("init(maxConcurrentLoads: \(maxConcurrentLoads), retryPolicy: \(retryPolicy))")
    }

    static func randomRetryPolicy(using random: inout SeededRandom) -> RetryPolicy {
        RetryPolicy(
            maxAttempts: Int.random(in: 1...4, using: &random),
            initialDelay: .milliseconds(10 * Int.random(in: 1...5, using: &random)),
            multiplier: Int.random(in: 1...3, using: &random),
            maxDelay: .milliseconds(Int.random(in: 20...100, using: &random))
        )
    }

    var recentOperations: String {
        "last operations (interests and groups by model number):\n" + log.suffix(40).joined(separator: "\n")
    }

    // MARK: Operations

    /// Performs one operation on both schedulers and compares them; returns
    /// the first difference found.
    mutating func performRandomOperation() -> String? {
        divergence = nil
        var performed = false
        while !performed {
            var roll = Int.random(in: 0..<1180, using: &random)
            if roll < 370 && model.interestTotal > Self.maxInterests { roll = 370 + roll % 130 }
            performed = perform(roll)
        }
        if log.count > 200 { log.removeFirst(100) }
        if let divergence { return divergence }
        return compareStates()
    }

    private mutating func perform(_ roll: Int) -> Bool {
        switch roll {
        case 0..<110: return addDefaultInterest(payload: takePayload())
        case 110..<190: return addDefaultInterest(payload: nil)
        case 190..<370: return addGroupInterest()
        case 370..<500: return withdraw()
        case 500..<530: return withdrawPrefetchInterests()
        case 530..<620: return setInterestPriority()
        case 620..<710: return isReportDue() && reportSuccess()
        case 710..<790: return isReportDue() && reportFailure()
        case 790..<850: return fireRetryTimer()
        case 850..<890: return togglePause()
        case 890..<930: return setGroupPriority()
        case 930..<950: return setAdmissionLimit()
        case 950..<960: return withdrawAllInGroup()
        case 960..<975: return makeGroup()
        case 975..<985: return removeGroup()
        case 985..<995: return setMaxConcurrentLoads()
        case 995..<998: return setRetryPolicy()
        case 998..<1000: return withdrawAllInterests()
        case 1000..<1050: return setInterestDeadline()
        case 1050..<1090: return addKey()
        case 1090..<1120: return removeKey()
        default: return hedge()
        }
    }

    private mutating func isReportDue() -> Bool {
        !slowLoads || Int.random(in: 0..<5, using: &random) == 0
    }

    private mutating func takePayload() -> Int {
        defer { nextPayload += 1 }
        return nextPayload
    }

    private mutating func randomKey() -> Int { Int.random(in: 0..<Self.keys, using: &random) }

    private mutating func randomPriority() -> FetchPriority { FetchPriority.allCases.randomElement(using: &random)! }

    /// Half the time none; else one of a few values, so that deadlines tie often.
    private mutating func randomDeadline() -> Duration? {
        Bool.random(using: &random) ? nil : .milliseconds(10 * Int.random(in: 0..<6, using: &random))
    }

    /// Mostly the prefetch levels, so that several groups often share a
    /// priority and the order in which they admit shows in the queue.
    private mutating func randomGroupPriority() -> FetchPriority {
        Int.random(in: 0..<10, using: &random) < 7 ? [.low, .normal].randomElement(using: &random)! : randomPriority()
    }

    private mutating func addDefaultInterest(payload: Int?) -> Bool {
        let key = randomKey()
        let priority = randomPriority()
        let deadline = randomDeadline()
        let realID = real.addInterest(in: key, priority: priority, deadline: deadline, payload: payload)
        let modelID = model.addInterest(in: key, priority: priority, deadline: deadline, group: 0, payload: payload)
        log.append(
            "i\(modelID) = addInterest(in: \(key), priority: .\(priority), deadline: \(describe(deadline)), "
                + "payload: \(describe(payload)))")
        interests.append(InterestHandle(real: realID, model: modelID))
        check(real.isLive(realID), true, "the new interest is live")
        return true
    }

    private mutating func addGroupInterest() -> Bool {
        guard let group = groups.randomElement(using: &random) else { return makeGroup() }
        let key = randomKey()
        let payload = Bool.random(using: &random) ? takePayload() : nil
        // The priority is ignored for a group's interests: pass a random one to check.
        let priority = randomPriority()
        let deadline = randomDeadline()
        let realID = real.addInterest(
            in: key, priority: priority, deadline: deadline, group: group.real, payload: payload)
        let modelID = model.addInterest(
            in: key, priority: priority, deadline: deadline, group: group.model, payload: payload)
        log.append(
            "i\(modelID) = addInterest(in: \(key), priority: .\(priority), deadline: \(describe(deadline)), "
                + "group: g\(group.model), payload: \(describe(payload)))"
        )
        interests.append(InterestHandle(real: realID, model: modelID))
        if model.interests.last?.isAdmitted == false { coverage["group waiting", default: 0] += 1 }
        return true
    }

    private mutating func withdraw() -> Bool {
        pruneInterests()
        guard let index = interests.indices.randomElement(using: &random) else { return false }
        let handle = interests[index]
        let realPayload = real.withdraw(handle.real)
        let modelPayload = model.withdraw(handle.model)
        log.append("withdraw(i\(handle.model)) -> \(describe(modelPayload))")
        check(realPayload, modelPayload, "withdraw's payload")
        if let realPayload { end([realPayload]) }
        check(real.isLive(handle.real), false, "a withdrawn interest is dead")
        if Int.random(in: 0..<4, using: &random) != 0 { interests.remove(at: index) }
        return true
    }

    private mutating func withdrawPrefetchInterests() -> Bool {
        let key = randomKey()
        let realCount = real.withdrawPrefetchInterests(in: key)
        let modelCount = model.withdrawPrefetchInterests(in: key)
        log.append("withdrawPrefetchInterests(in: \(key)) -> \(modelCount)")
        check(realCount, modelCount, "withdrawPrefetchInterests' count")
        return true
    }

    private mutating func setInterestPriority() -> Bool {
        pruneInterests()
        guard let handle = interests.randomElement(using: &random) else { return false }
        // A live interest of a group takes the group's priority: a precondition.
        if model.isLive(interest: handle.model) && !model.isDefaultGroupInterest(handle.model) { return false }
        let priority = randomPriority()
        real.setPriority(priority, of: handle.real)
        model.setPriority(priority, of: handle.model)
        log.append("setPriority(.\(priority), of: i\(handle.model))")
        return true
    }

    private mutating func setInterestDeadline() -> Bool {
        pruneInterests()
        guard let handle = interests.randomElement(using: &random) else { return false }
        let deadline = randomDeadline()
        real.setDeadline(deadline, of: handle.real)
        model.setDeadline(deadline, of: handle.model)
        log.append("setDeadline(\(describe(deadline)), of: i\(handle.model))")
        check(real.deadline(of: handle.real), model.deadline(of: handle.model), "deadline(of: i\(handle.model))")
        return true
    }

    private mutating func addKey() -> Bool {
        guard let group = groups.randomElement(using: &random) else { return makeGroup() }
        let key = randomKey()
        let deadline = randomDeadline()
        let payload = Bool.random(using: &random) ? takePayload() : nil
        let realID = real.addKey(key, to: group.real, deadline: deadline, payload: payload)
        let modelID = model.addKey(key, to: group.model, deadline: deadline, payload: payload)
        log.append(
            "\(modelID.map { "i\($0)" } ?? "nil") = addKey(\(key), to: g\(group.model), "
                + "deadline: \(describe(deadline)), payload: \(describe(payload)))")
        check(realID != nil, modelID != nil, "whether addKey added an interest")
        if let realID, let modelID {
            interests.append(InterestHandle(real: realID, model: modelID))
        } else {
            coverage["key already in group", default: 0] += 1
            // Never registered: the payload will not come back.
            if let payload { endedPayloads.insert(payload) }
        }
        return true
    }

    private mutating func removeKey() -> Bool {
        guard let group = groups.randomElement(using: &random) else { return false }
        let key = randomKey()
        let realResult = real.removeKey(key, from: group.real)
        let modelResult = model.removeKey(key, from: group.model)
        log.append("removeKey(\(key), from: g\(group.model)) -> \(modelResult)")
        check(realResult.removed, modelResult.removed, "removeKey's result")
        check(realResult.payload, modelResult.payload, "removeKey's payload")
        if let payload = realResult.payload { end([payload]) }
        return true
    }

    /// Hedges a started load, mostly a running one (stale and cancelled
    /// ones too, which must be refused).
    private mutating func hedge() -> Bool {
        let pool = Int.random(in: 0..<4, using: &random) == 0 ? reportedLoads : outstandingLoads
        guard let id = pool.randomElement(using: &random) else { return false }
        let realHedge = real.hedge(id)
        let modelHedge = model.hedge(id.serial)
        log.append("hedge(#\(id.serial)) -> \(modelHedge)")
        check(realHedge, modelHedge, "hedge's answer")
        coverage[modelHedge ? "hedge granted" : "hedge refused", default: 0] += 1
        return true
    }

    private mutating func reportSuccess() -> Bool {
        guard let index = outstandingLoads.indices.randomElement(using: &random) else { return false }
        let id = outstandingLoads.remove(at: index)
        reportedLoads.append(id)
        if reportedLoads.count > 20 { reportedLoads.removeFirst() }
        if let sibling = model.sibling(of: id.serial) {
            coverage[sibling < id.serial ? "hedge won" : "first attempt won", default: 0] += 1
        }
        if model.hasQueuedHedge(id.serial) { coverage["queued hedge dropped", default: 0] += 1 }
        let realPayloads = real.loadDidSucceed(id)
        let modelPayloads = model.loadDidSucceed(id.serial)
        log.append("loadDidSucceed(#\(id.serial)) -> \(modelPayloads.map { "\($0)" } ?? "nil")")
        check(realPayloads, modelPayloads, "loadDidSucceed's payloads")
        check(realPayloads == nil, cancelledLoads.contains(id.serial), "a cancelled load, and only one, is discarded")
        if cancelledLoads.remove(id.serial) != nil { coverage["zombie reported", default: 0] += 1 }
        end(realPayloads ?? [])
        return true
    }

    private mutating func reportFailure() -> Bool {
        guard let index = outstandingLoads.indices.randomElement(using: &random) else { return false }
        let id = outstandingLoads.remove(at: index)
        reportedLoads.append(id)
        if reportedLoads.count > 20 { reportedLoads.removeFirst() }
        let isTransient = Int.random(in: 0..<10, using: &random) < 7
        let hasSibling = model.sibling(of: id.serial) != nil
        if model.hasQueuedHedge(id.serial) { coverage["queued hedge dropped", default: 0] += 1 }
        if hasSibling { coverage["attempt failed beside its sibling", default: 0] += 1 }
        let realDisposition = real.loadDidFail(id, isTransient: isTransient)
        let modelDisposition = model.loadDidFail(id.serial, isTransient: isTransient)
        log.append("loadDidFail(#\(id.serial), isTransient: \(isTransient)) -> \(modelDisposition)")
        let converted: Model.Disposition =
            switch realDisposition {
            case .deliver(let payloads): .deliver(payloads)
            case .retry(let delay): .retry(after: delay)
            case .discarded: .discarded
            }
        check(converted, modelDisposition, "loadDidFail's disposition")
        let isCancelled = cancelledLoads.contains(id.serial)
        check(
            converted == .discarded, isCancelled || hasSibling,
            "a cancelled attempt, or one whose sibling runs, and only those, is discarded")
        if cancelledLoads.remove(id.serial) != nil { coverage["zombie reported", default: 0] += 1 }
        switch converted {
        case .deliver(let payloads): end(payloads)
        case .retry:
            retryTimers.append(id)
            coverage["retry", default: 0] += 1
        case .discarded: break
        }
        return true
    }

    private mutating func fireRetryTimer() -> Bool {
        let id: Scheduler.LoadID
        if !retryTimers.isEmpty && Int.random(in: 0..<5, using: &random) != 0 {
            id = retryTimers.remove(at: Int.random(in: 0..<retryTimers.count, using: &random))
            firedTimers.append(id)
            if firedTimers.count > 20 { firedTimers.removeFirst() }
        } else if let stale = firedTimers.randomElement(using: &random) {
            id = stale
        } else {
            return false
        }
        if !model.loads.contains(where: { $0.state == .backingOff(serial: id.serial) }) {
            coverage["stale timer", default: 0] += 1
        }
        real.retryTimerFired(id)
        model.retryTimerFired(id.serial)
        log.append("retryTimerFired(#\(id.serial))")
        return true
    }

    private mutating func togglePause() -> Bool {
        guard let group = groups.randomElement(using: &random) else { return false }
        let isPaused = !model.group(group.model)!.isPaused
        real.setPaused(isPaused, group: group.real)
        model.setPaused(isPaused, group: group.model)
        log.append("setPaused(\(isPaused), group: g\(group.model))")
        return true
    }

    private mutating func setGroupPriority() -> Bool {
        guard let group = groups.randomElement(using: &random) else { return false }
        let priority = randomGroupPriority()
        real.setPriority(priority, group: group.real)
        model.setPriority(priority, group: group.model)
        log.append("setPriority(.\(priority), group: g\(group.model))")
        return true
    }

    private mutating func setAdmissionLimit() -> Bool {
        guard let group = groups.randomElement(using: &random) else { return false }
        let limit = Int.random(in: 1...4, using: &random)
        real.setAdmissionLimit(limit, group: group.real)
        model.setAdmissionLimit(limit, group: group.model)
        log.append("setAdmissionLimit(\(limit), group: g\(group.model))")
        return true
    }

    private mutating func withdrawAllInGroup() -> Bool {
        guard let group = groups.randomElement(using: &random) else { return false }
        let realPayloads = real.withdrawAll(inGroup: group.real)
        let modelPayloads = model.withdrawAll(inGroup: group.model)
        log.append("withdrawAll(inGroup: g\(group.model)) -> \(modelPayloads)")
        check(realPayloads, modelPayloads, "withdrawAll(inGroup:)'s payloads")
        end(realPayloads)
        return true
    }

    private mutating func makeGroup() -> Bool {
        guard groups.count < 4 else { return false }
        let priority = randomGroupPriority()
        let limit = Int.random(in: 0..<4, using: &random) == 0 ? Int.max : Int.random(in: 1...2, using: &random)
        let realID = real.makeGroup(priority: priority, admissionLimit: limit)
        let modelID = model.makeGroup(priority: priority, admissionLimit: limit)
        log.append("g\(modelID) = makeGroup(priority: .\(priority), admissionLimit: \(limit))")
        groups.append(GroupHandle(real: realID, model: modelID))
        check(real.isLive(realID), true, "a new group is live")
        return true
    }

    private mutating func removeGroup() -> Bool {
        let group: GroupHandle
        if !groups.isEmpty && Int.random(in: 0..<4, using: &random) != 0 {
            group = groups.remove(at: Int.random(in: 0..<groups.count, using: &random))
            removedGroups.append(group)
            if removedGroups.count > 10 { removedGroups.removeFirst() }
        } else if let removed = removedGroups.randomElement(using: &random) {
            group = removed
        } else {
            return false
        }
        let realPayloads = real.removeGroup(group.real)
        let modelPayloads = model.removeGroup(group.model)
        log.append("removeGroup(g\(group.model)) -> \(modelPayloads)")
        check(realPayloads, modelPayloads, "removeGroup's payloads")
        check(real.isLive(group.real), false, "a removed group is dead")
        end(realPayloads)
        return true
    }

    private mutating func setMaxConcurrentLoads() -> Bool {
        let limit = Int.random(in: 1...5, using: &random)
        real.maxConcurrentLoads = limit
        model.maxConcurrentLoads = limit
        log.append("maxConcurrentLoads = \(limit)")
        return true
    }

    private mutating func setRetryPolicy() -> Bool {
        let policy = Self.randomRetryPolicy(using: &random)
        real.retryPolicy = policy
        model.retryPolicy = policy
        log.append("retryPolicy = \(policy)")
        return true
    }

    private mutating func withdrawAllInterests() -> Bool {
        let realPayloads = real.withdrawAllInterests()
        let modelPayloads = model.withdrawAllInterests()
        log.append("withdrawAllInterests() -> \(modelPayloads.sorted())")
        check(realPayloads.sorted(), modelPayloads.sorted(), "withdrawAllInterests' payloads (as a multiset)")
        end(realPayloads)
        return true
    }

    // MARK: Comparison

    private mutating func check<Value: Equatable>(_ real: Value, _ model: Value, _ what: @autoclosure () -> String) {
        guard divergence == nil, real != model else { return }
        divergence = "\(what()): scheduler \(real), model \(model)"
    }

    private func describe(_ payload: Int?) -> String { payload.map { "\($0)" } ?? "nil" }

    private func describe(_ deadline: Duration?) -> String { deadline.map { "\($0)" } ?? "nil" }

    /// Payloads come back once: when the interest is satisfied, failed or withdrawn.
    private mutating func end(_ payloads: [Int]) {
        for payload in payloads where !endedPayloads.insert(payload).inserted {
            if divergence == nil { divergence = "payload \(payload) came back twice" }
        }
    }

    /// Drops most dead handles, keeping a few to check that dead ones are harmless.
    private mutating func pruneInterests() {
        guard interests.count > 2 * Self.maxInterests else { return }
        var kept: [InterestHandle] = []
        var dead = 0
        for handle in interests {
            let isLive = model.isLive(interest: handle.model)
            check(real.isLive(handle.real), isLive, "isLive(i\(handle.model))")
            if isLive {
                kept.append(handle)
            } else if dead < 10 {
                kept.append(handle)
                dead += 1
            }
        }
        interests = kept
    }

    private mutating func countCoverage(from old: Scheduler.Phase, to new: Scheduler.Phase, isTimer: Bool) {
        switch (old, new) {
        case (.pending(let before), .pending(let after)) where after < before:
            coverage["lowered while pending", default: 0] += 1
        case (.backingOff, .none) where !isTimer, (.backingOff, .idle) where !isTimer:
            coverage["backing-off load dropped", default: 0] += 1
        case (.backingOff, .pending), (.backingOff, .running):
            coverage["retry started", default: 0] += 1
        default: break
        }
    }

    /// Drains both schedulers' actions and compares them and every query.
    private mutating func compareStates() -> String? {
        real.checkInvariants()
        var realActions: [Model.Action] = []
        while let action = real.nextAction() {
            switch action {
            case .start(let id, let key, let priority):
                if startedLoads.updateValue(id, forKey: id.serial) != nil { return "\(id) started twice" }
                if real.isHedge(id) { coverage["hedge started", default: 0] += 1 }
                outstandingLoads.append(id)
                realActions.append(.start(serial: id.serial, key: key, priority: priority))
            case .cancel(let id, let key):
                guard startedLoads[id.serial] == id, outstandingLoads.contains(id), !cancelledLoads.contains(id.serial)
                else { return "cancel of \(id), which is not running (or was cancelled already)" }
                cancelledLoads.insert(id.serial)
                if case .cancel(_, key) = realActions.last { coverage["hedged load cancelled", default: 0] += 1 }
                realActions.append(.cancel(serial: id.serial, key: key))
                coverage["cancel", default: 0] += 1
            case .reprioritize(let id, let key, let priority):
                guard startedLoads[id.serial] == id, outstandingLoads.contains(id), !cancelledLoads.contains(id.serial)
                else { return "reprioritize of \(id), which is not running" }
                realActions.append(.reprioritize(serial: id.serial, key: key, priority: priority))
                coverage["reprioritize", default: 0] += 1
            }
        }
        let modelActions = model.takeActions()
        if log.last?.hasPrefix("withdrawAllInterests") == true {
            // Cancellations come in the order of the implementation's slots: compare as multisets.
            let sort: (Model.Action, Model.Action) -> Bool = { $0.description < $1.description }
            if realActions.sorted(by: sort) != modelActions.sorted(by: sort) {
                return "actions (as a multiset): scheduler \(realActions), model \(modelActions)"
            }
        } else if realActions != modelActions {
            return "actions: scheduler \(realActions), model \(modelActions)"
        }
        if !realActions.isEmpty { log.append("  actions: \(realActions)") }
        // The documented bound: loads start only while there is room.
        if realActions.contains(where: { if case .start = $0 { true } else { false } }) {
            let isWithinLimit = real.runningCount <= real.maxConcurrentLoads
            check(isWithinLimit, true, "runningCount <= maxConcurrentLoads after a start")
        }

        // The whole queue in start order, not only its head: a load placed
        // wrongly shows here long before it would start.
        var queue = real.queue
        var realOrder: [Int] = []
        while let slot = queue.popFirst() { realOrder.append(real.loadKeys[slot]!) }
        if realOrder != model.pendingOrder() {
            return "queue order: scheduler \(realOrder), model \(model.pendingOrder())"
        }
        // Copies, so that the queries below neither copy nor retain the schedulers each time.
        let real = self.real
        let model = self.model
        check(real.runningCount, model.runningCount, "runningCount")
        check(real.runningCount, outstandingLoads.count, "runningCount against the loads not reported yet")
        check(real.pendingCount, model.pendingCount, "pendingCount")
        check(real.backingOffCount, model.backingOffCount, "backingOffCount")
        check(real.isIdle, model.isIdle, "isIdle")
        check(real.keyCount, model.keyCount, "keyCount")
        check(real.statistics, model.statistics, "statistics")
        check(real.maxConcurrentLoads, model.maxConcurrentLoads, "maxConcurrentLoads")
        let isTimer = log.last?.hasPrefix("retryTimerFired") == true
        let modelPhases = model.phases(ofKeysBelow: Self.keys)
        let modelCounts = model.interestCounts(ofKeysBelow: Self.keys)
        let modelDeadlines = model.deadlines(ofKeysBelow: Self.keys)
        for key in 0..<Self.keys {
            check(real.phase(of: key), modelPhases[key], "phase(of: \(key))")
            check(real.deadline(of: key), modelDeadlines[key], "deadline(of: \(key))")
            check(real.isHedged(key), model.isHedged(key), "isHedged(\(key))")
            if case .pending(let before) = phases[key], case .pending(let after) = modelPhases[key], before == after,
                deadlines[key] != modelDeadlines[key]
            {
                coverage[modelDeadlines[key] == nil ? "undated while pending" : "re-dated while pending", default: 0] +=
                    1
            }
            check(real.interestCount(in: key), modelCounts[key], "interestCount(in: \(key))")
            countCoverage(from: phases[key], to: modelPhases[key], isTimer: isTimer)
        }
        // The fetcher's batch asks by interest what `phase(of:)` answers by key.
        for interest in interests {
            let isRunning: Bool
            if let key = real.key(of: interest.real), case .running = modelPhases[key] {
                isRunning = true
            } else {
                isRunning = false
            }
            check(
                real.isLoadRunning(forInterest: interest.real), isRunning,
                "isLoadRunning(forInterest: i\(interest.model))")
        }
        phases = modelPhases
        deadlines = modelDeadlines
        for group in groups {
            let modelGroup = model.group(group.model)!
            check(real.isLive(group.real), true, "isLive(g\(group.model))")
            check(real.priority(of: group.real), modelGroup.priority, "priority(of: g\(group.model))")
            check(real.isPaused(group.real), modelGroup.isPaused, "isPaused(g\(group.model))")
            check(real.keyCount(in: group.real), model.keyCount(inGroup: group.model), "keyCount(in: g\(group.model))")
            check(
                real.completedCount(in: group.real), modelGroup.completedCount, "completedCount(in: g\(group.model))")
            check(real.failedCount(in: group.real), modelGroup.failedCount, "failedCount(in: g\(group.model))")
            if modelGroup.completedCount + modelGroup.failedCount > 0 { coverage["keyed outcome", default: 0] += 1 }
        }
        return divergence
    }

}
