public import DequeModule

/// The load transitions of `FetchScheduler`: a load's outcome events
/// (succeeded, failed, retry timer fired), `reconcile`, which brings a load's
/// state in line with its interests, and `settle`, which every public event
/// ends with: groups admit what they can, then queued loads start.
extension FetchScheduler {
    /// The load succeeded.
    ///
    /// - Returns: the payloads of every interest in the key (all of them are
    ///   satisfied, waiting ones included), or `nil` when the load had been
    ///   cancelled and its value concerns nobody.
    /// - Complexity: O(interests in the key).
    @inlinable
    public mutating func loadDidSucceed(_ id: LoadID) -> [Payload]? {
        if endCancelled(id) { return nil }
        let slot = runningSlot(id, "loadDidSucceed")
        dropQueuedHedge(slot)
        let loser = otherAttempt(slot, than: id)
        _runningCount -= 1
        _statistics.loadsCompleted += 1
        // The hedge won when the attempt left behind is the first one.
        if let loser, !loser.isHedge { _statistics.hedgesWon += 1 }
        let payloads = detachAll(slot, succeeded: true, loser: loser?.serial)
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
        if endCancelled(id) { return .discarded }
        let slot = runningSlot(id, "loadDidFail")
        dropQueuedHedge(slot)
        _runningCount -= 1
        if let survivor = otherAttempt(slot, than: id) {
            // Not a failure of the load: the other attempt still runs.
            loads[slot]!.state = .running(serial: survivor.serial, priorityOfRunning(slot))
            settle()
            return .discarded
        }
        loads[slot]!.failures += 1
        if isTransient, let delay = retryPolicy.delay(afterFailures: loads[slot]!.failures) {
            loads[slot]!.state = .backingOff(serial: id.serial)
            _backingOffCount += 1
            _statistics.retriesScheduled += 1
            settle()
            return .retry(after: delay)
        }
        _statistics.loadsFailed += 1
        let payloads = detachAll(slot, succeeded: false)
        settle()
        return .deliver(payloads)
    }

    /// The delay before a retry has passed. A timer for a load that was
    /// cancelled meanwhile is ignored.
    /// - Complexity: O(1) amortized without deadlines.
    @inlinable
    public mutating func retryTimerFired(_ id: LoadID) {
        guard id.slot < loads.count, let record = loads[id.slot],
            case .backingOff(let serial) = record.state, serial == id.serial
        else { return }
        _backingOffCount -= 1
        loads[id.slot]!.state = .idle
        if let priority = record.active.highest {
            // A retry goes ahead of what waits at its priority: it has waited already.
            enqueue(id.slot, priority: priority, deadline: wantedDeadline(id.slot), atFront: true)
        }
        settle()
    }

    // MARK: Internals

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
                enqueue(slot, priority: priority, deadline: wantedDeadline(slot), atFront: false)
            } else {
                freeLoadIfUnused(slot)
            }
        case .pending(let current, let currentDeadline):
            guard let wanted = record.active.highest else {
                loads[slot]!.state = .idle
                queue.remove(slot)
                freeLoadIfUnused(slot)
                return
            }
            let deadline = wantedDeadline(slot)
            if wanted != current {
                queue.remove(slot)
                enqueue(slot, priority: wanted, deadline: deadline, atFront: wanted < current)
            } else if deadline != currentDeadline {
                loads[slot]!.state = .pending(wanted, deadline: deadline)
                queue.updateDeadline(of: slot, to: deadline)
            }
        case .running(let serial, let current), .hedgeQueued(let serial, let current):
            // A hedge waiting for a slot moves with its load: out of the
            // queue when nobody wants the load, to its new priority or
            // deadline otherwise.
            let isHedgeQueued = queue.contains(slot)
            if record.admittedCount == 0 {
                if isHedgeQueued { queue.remove(slot) }
                actions.append(.cancel(LoadID(serial: serial, slot: slot), loadKeys[slot]!))
                _statistics.loadsCancelled += 1
                setAsideCancelled(slot, serial: serial)
            } else if let priority = record.active.highest, priority != current {
                if isHedgeQueued {
                    loads[slot]!.state = .hedgeQueued(serial: serial, priority)
                    queue.remove(slot)
                    queue.insert(slot, priority: priority, deadline: wantedDeadline(slot), atFront: priority < current)
                } else {
                    loads[slot]!.state = .running(serial: serial, priority)
                }
                actions.append(.reprioritize(LoadID(serial: serial, slot: slot), loadKeys[slot]!, priority))
            } else if isHedgeQueued {
                let deadline = wantedDeadline(slot)
                if deadline != queue.deadline(of: slot) { queue.updateDeadline(of: slot, to: deadline) }
            }
        case .hedged(let serial, let hedge, let current):
            if record.admittedCount == 0 {
                actions.append(.cancel(LoadID(serial: serial, slot: slot), loadKeys[slot]!))
                actions.append(.cancel(LoadID(serial: hedge, slot: slot), loadKeys[slot]!))
                _statistics.loadsCancelled += 1
                setAsideCancelled(slot, serial: serial, hedge: hedge)
            } else if let priority = record.active.highest, priority != current {
                loads[slot]!.state = .hedged(serial: serial, hedge: hedge, priority)
                actions.append(.reprioritize(LoadID(serial: serial, slot: slot), loadKeys[slot]!, priority))
                actions.append(.reprioritize(LoadID(serial: hedge, slot: slot), loadKeys[slot]!, priority))
            }
        case .backingOff:
            if record.admittedCount == 0 {
                _backingOffCount -= 1
                _statistics.loadsCancelled += 1
                // The retry budget and the hedge are per load: a later load of the key starts afresh.
                loads[slot]!.failures = 0
                loads[slot]!.hasHedged = false
                loads[slot]!.state = .idle
                freeLoadIfUnused(slot)
            }
        case .cancelled:
            break
        }
    }

    /// The earliest deadline among the load's active interests.
    /// - Complexity: O(1) when none has a deadline, else O(interests in the key).
    @inlinable
    func wantedDeadline(_ slot: Int) -> Duration? {
        guard loads[slot]!.datedCount > 0 else { return nil }
        var earliest: Duration?
        var cursor = loads[slot]!.head
        while cursor != -1 {
            if let deadline = interests[cursor].deadline, isActive(cursor), earliest.map({ deadline < $0 }) ?? true {
                earliest = deadline
            }
            cursor = interests[cursor].loadNext
        }
        return earliest
    }

    @inlinable
    mutating func enqueue(_ slot: Int, priority: FetchPriority, deadline: Duration?, atFront: Bool) {
        loads[slot]!.state = .pending(priority, deadline: deadline)
        queue.insert(slot, priority: priority, deadline: deadline, atFront: atFront)
    }

    /// A running load nobody wants any more: its record stays, `cancelled`,
    /// holding its slot of the limit until the driver reports its end; the
    /// key's interests that still wait (in a paused or full group) move to a
    /// fresh record, which a later load of the key uses.
    @inlinable
    mutating func setAsideCancelled(_ slot: Int, serial: UInt64, hedge: UInt64? = nil) {
        let key = loadKeys[slot]!
        if loads[slot]!.interestCount == 0 {
            loadSlots[key] = nil
        } else {
            var successor = loads[slot]!
            successor.state = .idle
            // The retry budget and the hedge are per load: a later load of the key starts afresh.
            successor.failures = 0
            successor.hasHedged = false
            let fresh = allocateLoad(successor, key: key)
            loadSlots[key] = fresh
            var cursor = successor.head
            while cursor != -1 {
                interests[cursor].load = fresh
                cursor = interests[cursor].loadNext
            }
            loads[slot] = LoadRecord()
        }
        loads[slot]!.state = .cancelled(serial: serial, hedge: hedge)
    }

    /// Ends every interest of a load that finished, and frees the load, or,
    /// when the other attempt of a hedged load still runs (`loser`), cancels
    /// that attempt and keeps the record, `cancelled`, holding its slot.
    @inlinable
    mutating func detachAll(_ slot: Int, succeeded: Bool, loser: UInt64? = nil) -> [Payload] {
        var payloads: [Payload] = []
        payloads.reserveCapacity(loads[slot]!.interestCount)
        var cursor = loads[slot]!.head
        while cursor != -1 {
            let next = interests[cursor].loadNext
            if interests[cursor].isKeyed {
                let group = interests[cursor].group
                if succeeded { groups[group].completedCount += 1 } else { groups[group].failedCount += 1 }
            }
            if let payload = detach(cursor) { payloads.append(payload) }
            cursor = next
        }
        if let loser {
            let key = loadKeys[slot]!
            actions.append(.cancel(LoadID(serial: loser, slot: slot), key))
            loadSlots[key] = nil
            loads[slot] = LoadRecord()
            loads[slot]!.state = .cancelled(serial: loser, hedge: nil)
        } else {
            loads[slot]!.state = .idle
            freeLoadIfUnused(slot)
        }
        return payloads
    }

    @inlinable
    mutating func startLoads() {
        while _runningCount < maxConcurrentLoads, let slot = queue.popFirst() {
            let record = loads[slot]!
            let serial = nextSerial
            nextSerial &+= 1
            switch record.state {
            case .pending(let priority, _):
                loads[slot]!.state = .running(serial: serial, priority)
                actions.append(.start(LoadID(serial: serial, slot: slot), loadKeys[slot]!, priority))
            case .hedgeQueued(let first, let priority):
                loads[slot]!.state = .hedged(serial: first, hedge: serial, priority)
                _statistics.hedgesStarted += 1
                actions.append(.start(LoadID(serial: serial, slot: slot), loadKeys[slot]!, priority))
            default:
                preconditionFailure("load \(slot) was queued but is \(record.state)")
            }
            _runningCount += 1
            _statistics.loadsStarted += 1
        }
    }

    /// Frees a cancelled load whose end the driver reports.
    @inlinable
    mutating func endCancelled(_ id: LoadID) -> Bool {
        guard id.slot < loads.count, let record = loads[id.slot], case .cancelled(let serial, let hedge) = record.state,
            serial == id.serial || hedge == id.serial
        else { return false }
        if let hedge {
            // One of the two attempts ended: the record waits for the other.
            loads[id.slot]!.state = .cancelled(serial: serial == id.serial ? hedge : serial, hedge: nil)
        } else {
            loads[id.slot] = nil
            loadKeys[id.slot] = nil
            freeLoads.append(id.slot)
        }
        _runningCount -= 1
        settle()
        return true
    }

    @inlinable
    func runningSlot(_ id: LoadID, _ event: StaticString) -> Int {
        guard id.slot < loads.count, let record = loads[id.slot] else {
            preconditionFailure("\(event): \(id) is not running (reported twice, or never started)")
        }
        switch record.state {
        case .running(let serial, _) where serial == id.serial: return id.slot
        case .hedgeQueued(let serial, _) where serial == id.serial: return id.slot
        case .hedged(let serial, let hedge, _) where serial == id.serial || hedge == id.serial: return id.slot
        default: preconditionFailure("\(event): \(id) is not running (reported twice, or never started)")
        }
    }
}
