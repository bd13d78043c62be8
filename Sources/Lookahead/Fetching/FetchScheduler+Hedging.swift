public import DequeModule

/// Tail hedging in ``FetchScheduler``: a second attempt for a slow load, the
/// first kept, whichever succeeds first delivering.
///
/// With log-normal latencies a few slow responses decide how long a screen
/// stays blank; a second request for the same key usually lands well before
/// the slow one (the "tail at scale" remedy). The scheduler offers the
/// mechanism and keeps it bounded — one hedge per load, a slot of the
/// concurrency limit for each attempt, never ahead of waiting work — and the
/// driver decides *when* (e.g. a visible item's request that has run past
/// the observed p90 of load durations), since only it reads a clock.
extension FetchScheduler {
    /// Starts a second attempt of the running load `id`, if the limits allow.
    ///
    /// The first attempt keeps running. The hedge's `.start` action is queued
    /// like any other (take it with ``nextAction()``); report its outcome with
    /// `loadDidSucceed` / `loadDidFail` under the returned id. The first of the
    /// two attempts to succeed delivers to every interest of the key and the
    /// other gets a `.cancel` action (it holds its slot until reported). An
    /// attempt that fails while the other runs is not a failure of the load
    /// (its disposition is `.discarded`, no retry budget spent). If nobody
    /// wants the load any more, both attempts are cancelled.
    ///
    /// Refused (`nil`) when `id` is not a running attempt, when the load has
    /// had its hedge already (one per load, retries included), or when no
    /// slot is free. A free slot means nothing waits in the queue (every event
    /// starts what it can), so a hedge never takes a slot from a pending load.
    ///
    /// - Returns: the hedge's id, or `nil` when refused.
    /// - Complexity: O(1)
    @inlinable
    @discardableResult
    public mutating func hedge(_ id: LoadID) -> LoadID? {
        guard id.slot < loads.count, let record = loads[id.slot],
            case .running(let serial, let priority) = record.state, serial == id.serial,
            !record.hasHedged, _runningCount < maxConcurrentLoads, queue.count == 0
        else { return nil }
        let hedge = LoadID(serial: nextSerial, slot: id.slot)
        nextSerial &+= 1
        loads[id.slot]!.state = .hedged(serial: serial, hedge: hedge.serial, priority)
        loads[id.slot]!.hasHedged = true
        _runningCount += 1
        _statistics.loadsStarted += 1
        _statistics.hedgesStarted += 1
        actions.append(.start(hedge, record.key, priority))
        return hedge
    }

    /// Whether the started attempt `id` is a hedge (for drivers, on its `.start`).
    /// - Complexity: O(1)
    @inlinable
    public func isHedge(_ id: LoadID) -> Bool {
        guard id.slot < loads.count, let record = loads[id.slot],
            case .hedged(_, let hedge, _) = record.state
        else { return false }
        return hedge == id.serial
    }

    /// Whether two attempts of `key`'s load run now.
    /// - Complexity: O(1)
    @inlinable
    public func isHedged(_ key: Key) -> Bool {
        guard let slot = loadSlots[key], case .hedged = loads[slot]!.state else { return false }
        return true
    }

    // MARK: Internals

    /// The attempt of a hedged load other than `id`, and whether it is the
    /// hedge; `nil` when the load runs one attempt.
    @inlinable
    func otherAttempt(_ slot: Int, than id: LoadID) -> (serial: UInt64, isHedge: Bool)? {
        guard case .hedged(let serial, let hedge, _) = loads[slot]!.state else { return nil }
        return serial == id.serial ? (hedge, true) : (serial, false)
    }

    /// The priority a running or hedged load runs at.
    @inlinable
    func priorityOfRunning(_ slot: Int) -> FetchPriority {
        switch loads[slot]!.state {
        case .running(_, let priority), .hedged(_, _, let priority): priority
        default: preconditionFailure("load \(slot) is not running: \(loads[slot]!.state)")
        }
    }
}
