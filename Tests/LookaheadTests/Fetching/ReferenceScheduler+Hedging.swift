// The reference model's loads after they start: outcomes, retries and
// hedges (queued or running), and the queries the comparison makes of them.

import Lookahead

extension ReferenceScheduler {
    // MARK: Hedges

    /// Whether two attempts of `key`'s load run now.
    func isHedged(_ key: Int) -> Bool {
        guard let load = loads.first(where: { $0.key == key }), case .hedged = load.state else { return false }
        return true
    }

    /// Whether `serial` runs with its hedge waiting for a slot.
    func hasQueuedHedge(_ serial: UInt64) -> Bool {
        loads.contains { if case .hedgeQueued(serial, _, _, _) = $0.state { true } else { false } }
    }

    /// The other attempt of the hedged load that `serial` is an attempt of.
    func sibling(of serial: UInt64) -> UInt64? {
        for load in loads {
            if case .hedged(let first, let hedge, _) = load.state {
                if first == serial { return hedge }
                if hedge == serial { return first }
            }
        }
        return nil
    }

    /// The keys of the pending loads and queued hedges, in the order they start.
    func pendingOrder() -> [Int] {
        var entries: [(key: Int, priority: FetchPriority, deadline: Duration?, stamp: Int)] = []
        for load in loads {
            switch load.state {
            case .pending(let priority, let stamp, let deadline): entries.append((load.key, priority, deadline, stamp))
            case .hedgeQueued(_, let priority, let stamp, let deadline):
                entries.append((load.key, priority, deadline, stamp))
            default: break
            }
        }
        entries.sort { Self.startsBefore($0.priority, $0.deadline, $0.stamp, $1.priority, $1.deadline, $1.stamp) }
        return entries.map(\.key)
    }

    // MARK: Load outcomes

    mutating func loadDidSucceed(_ serial: UInt64) -> [Int]? {
        if let zombie = zombies.firstIndex(of: serial) {
            zombies.remove(at: zombie)
            settle()
            return nil
        }
        let key = runningKey(serial)
        dropQueuedHedge(of: key)
        statistics.loadsCompleted += 1
        let loser = sibling(of: serial)
        if let loser, loser < serial { statistics.hedgesWon += 1 }
        let payloads = endAllInterests(in: key, succeeded: true)
        if let loser {
            actions.append(.cancel(serial: loser, key: key))
            zombies.append(loser)
        }
        settle()
        return payloads
    }

    mutating func loadDidFail(_ serial: UInt64, isTransient: Bool) -> Disposition {
        if let zombie = zombies.firstIndex(of: serial) {
            zombies.remove(at: zombie)
            settle()
            return .discarded
        }
        let key = runningKey(serial)
        dropQueuedHedge(of: key)
        let position = loads.firstIndex { $0.key == key }!
        if let survivor = sibling(of: serial) {
            loads[position].state = .running(serial: survivor, loads[position].state.runningPriority!)
            settle()
            return .discarded
        }
        loads[position].failures += 1
        if isTransient, let delay = retryDelay(afterFailures: loads[position].failures) {
            loads[position].state = .backingOff(serial: serial)
            statistics.retriesScheduled += 1
            settle()
            return .retry(after: delay)
        }
        statistics.loadsFailed += 1
        let payloads = endAllInterests(in: key, succeeded: false)
        settle()
        return .deliver(payloads)
    }

    mutating func retryTimerFired(_ serial: UInt64) {
        guard let position = loads.firstIndex(where: { $0.state == .backingOff(serial: serial) }) else { return }
        loads[position].state = .idle
        let key = loads[position].key
        if let priority = activePriority(of: key) {
            loads[position].state = .pending(priority, stamp: frontStamp(), deadline: activeDeadline(of: key))
        }
        settle()
    }

    /// Asks for a second attempt of the running load `serial`; `false` when refused.
    mutating func hedge(_ serial: UInt64) -> Bool {
        guard
            let position = loads.firstIndex(where: { if case .running(serial, _) = $0.state { true } else { false } }),
            !loads[position].hasHedged, let priority = loads[position].state.runningPriority
        else { return false }
        loads[position].state = .hedgeQueued(
            serial: serial, priority, stamp: backStamp(), deadline: activeDeadline(of: loads[position].key))
        loads[position].hasHedged = true
        settle()
        return true
    }

    /// The attempt whose hedge waits ended: the hedge is dropped.
    mutating func dropQueuedHedge(of key: Int) {
        guard let position = loads.firstIndex(where: { $0.key == key }),
            case .hedgeQueued(let serial, let priority, _, _) = loads[position].state
        else { return }
        loads[position].state = .running(serial: serial, priority)
    }
}
